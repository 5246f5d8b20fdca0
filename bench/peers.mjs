// The same scripted conversations for every participant: an in-process model that needs no network,
// set up once, whose answer depends only on the transcript it is sent (so one client/agent serves
// every run and the timed part is the SDK's own loop).
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from "ai";
import * as aiTest from "ai/test";
import { Agent, RunState, Usage, run as agentsRun, setTracingDisabled, tool as agentsTool } from "@openai/agents";

export const PROMPT = "What is the weather in Paris and in Chennai?";
export const FINAL = "Paris: 21°C and sunny; Chennai: 33°C and humid.";
/** Turn 1 and turn 2 each call `weather` once; turn 3 answers. */
export const CALLS = [
  { id: "call_paris", city: "Paris" },
  { id: "call_chennai", city: "Chennai" },
];
const SCHEMA = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};
const DESCRIPTION = "Current weather for a city";
const weatherOf = (city) => `${city}: ${city === "Paris" ? "21°C, sunny" : "33°C, humid"}`;

// ── toolnexus ───────────────────────────────────────────────────────────────────────────────────

/** A three-turn run on toolnexus' in-process client (more client `options` too); `run()` resolves with the RunResult. */
export async function oursThreeTurns(tn, options = {}) {
  // the weather tool alone, as the peers are given it (createToolkit adds the builtins unless told not to)
  const toolkit = await tn.createToolkit({
    builtins: false,
    tools: [
      tn.defineTool({
        name: "weather",
        description: DESCRIPTION,
        inputSchema: SCHEMA,
        execute: async ({ city }) => weatherOf(city),
      }),
    ],
  });
  const client = tn.createInProcessClient({
    ...options,
    model: "scripted",
    generate: ({ messages }) => {
      const done = messages.filter((m) => m.role === "tool").length;
      const call = CALLS[done];
      return call
        ? { toolCalls: [{ id: call.id, name: "weather", arguments: { city: call.city } }] }
        : { content: FINAL };
    },
  });
  return {
    run: () => client.run(PROMPT, { toolkit }),
    check: (r) => r.status === "done" && r.text === FINAL && r.toolCalls.length === 2,
  };
}

// ── ai (Vercel AI SDK) ──────────────────────────────────────────────────────────────────────────

const aiUsage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** ai's own mock of the newest model interface it has (ai 7 has V4 beside V3; ai 6 only V3). */
export const AI_MOCK = aiTest.MockLanguageModelV4 ? "MockLanguageModelV4" : "MockLanguageModelV3";

/** The same three turns with `generateText` and ai's own mock model ({@link AI_MOCK}). */
export function aiThreeTurns() {
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the mock class is V4 or V3, whichever this ai has
  const model = new aiTest[AI_MOCK]({
    doGenerate: async ({ prompt }) => {
      const done = prompt.filter((m) => m.role === "tool").length;
      const call = CALLS[done];
      if (call) {
        const content = [
          { type: "tool-call", toolCallId: call.id, toolName: "weather", input: JSON.stringify({ city: call.city }) },
        ];
        return { content, finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: aiUsage, warnings: [] };
      }
      return {
        content: [{ type: "text", text: FINAL }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: aiUsage,
        warnings: [],
      };
    },
  });
  const tools = {
    weather: aiTool({
      description: DESCRIPTION,
      inputSchema: jsonSchema(SCHEMA),
      execute: async ({ city }) => weatherOf(city),
    }),
  };
  return {
    run: () => {
      model.doGenerateCalls.length = 0; // the mock records every call; don't let that grow across runs
      return generateText({ model, prompt: PROMPT, tools, stopWhen: stepCountIs(10) });
    },
    check: (r) => r.text === FINAL && r.steps.length === 3 && r.steps.flatMap((s) => s.toolResults).length === 2,
  };
}

// ── @openai/agents ──────────────────────────────────────────────────────────────────────────────

export const functionCall = (id, name, args) => ({
  type: "function_call",
  callId: id,
  name,
  arguments: JSON.stringify(args),
  status: "completed",
});
export const assistant = (text) => ({
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text }],
});

/** A fake `Model` (the interface agents' providers implement) answering from `respond(input)`. */
export function fakeModel(respond) {
  let n = 0;
  return {
    async getResponse(request) {
      const output = respond(request.input);
      return {
        usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
        output,
        responseId: `resp_${n++}`,
      };
    },
    // biome-ignore lint/correctness/useYield: the fake model never streams; it has to be a generator all the same
    async *getStreamedResponse() {
      throw new Error("not used by the benchmarks");
    },
  };
}

const countResults = (input) =>
  Array.isArray(input) ? input.filter((i) => i.type === "function_call_result").length : 0;

/** The same three turns with `run(agent, prompt)` and a fake model; tracing off (it would export over the network). */
export function agentsThreeTurns() {
  setTracingDisabled(true);
  const model = fakeModel((input) => {
    const call = CALLS[countResults(input)];
    return call ? [functionCall(call.id, "weather", { city: call.city })] : [assistant(FINAL)];
  });
  const weather = agentsTool({
    name: "weather",
    description: DESCRIPTION,
    parameters: SCHEMA,
    strict: false,
    execute: async ({ city }) => weatherOf(city),
  });
  const agent = new Agent({ name: "bench", instructions: "Answer with the weather tool.", tools: [weather], model });
  return {
    run: () => agentsRun(agent, PROMPT),
    check: (r) => r.finalOutput === FINAL && r.newItems.filter((i) => i.type === "tool_call_output_item").length === 2,
  };
}

/**
 * Halt → serialize → deserialize → approve → resume on @openai/agents with `history` as the input:
 * a tool with `needsApproval`, `RunState.toString()` and `RunState.fromString()`.
 */
export function agentsApprovalRound(history) {
  setTracingDisabled(true);
  const model = fakeModel((input) => {
    const last = Array.isArray(input) ? input[input.length - 1] : undefined;
    return last?.type === "function_call_result"
      ? [assistant("Approved and done.")]
      : [functionCall("call_approve", "deploy", { target: "prod" })];
  });
  const deploy = agentsTool({
    name: "deploy",
    description: "Deploys after a human approves",
    parameters: {
      type: "object",
      properties: { target: { type: "string" } },
      required: ["target"],
      additionalProperties: false,
    },
    strict: false,
    needsApproval: true,
    execute: async ({ target }) => `deployed to ${target}`,
  });
  const agent = new Agent({ name: "bench", instructions: "Deploy when asked.", tools: [deploy], model });
  return {
    async run() {
      const halted = await agentsRun(agent, history);
      const stored = halted.state.toString();
      const state = await RunState.fromString(agent, stored);
      state.approve(state.getInterruptions()[0]);
      const done = await agentsRun(agent, state);
      return { done, stored };
    },
    check: ({ done }) => done.finalOutput === "Approved and done.",
  };
}

/** The agents input items equivalent to an OpenAI chat history (user / assistant text only, plus the ask). */
export function agentsItems(chat) {
  const items = [];
  for (const m of chat) {
    if (m.role === "user") items.push({ role: "user", content: m.content });
    else if (m.role === "assistant" && m.tool_calls) {
      for (const c of m.tool_calls)
        items.push({
          type: "function_call",
          callId: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
          status: "completed",
        });
    } else if (m.role === "assistant")
      items.push({ role: "assistant", status: "completed", content: [{ type: "output_text", text: m.content }] });
    else if (m.role === "tool")
      items.push({
        type: "function_call_result",
        callId: m.tool_call_id,
        name: "lookup",
        status: "completed",
        output: { type: "text", text: m.content },
      });
  }
  return items;
}

/** What the user asks after the history in the suspension benchmark. */
export const ASK = "Please deploy the fix to production.";

/**
 * An OpenAI chat transcript of exactly `n` messages, cycling through a user question, an assistant
 * tool call, its tool result and an assistant answer (a few hundred bytes each). It ends on an
 * assistant answer, so it is balanced (every tool call has its result) and `ASK` can follow it.
 */
export function chatHistory(n) {
  const messages = [];
  for (let i = 0; messages.length < n; i++) {
    const id = `call_${i.toString(36).padStart(6, "0")}`;
    const order = 1000 + i;
    const ships = `2026-05-0${(i % 9) + 1}`;
    messages.push(
      {
        role: "user",
        content: `Question ${i}: what did the order ${order} contain, and when does it ship? Please be precise.`,
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "lookup", arguments: JSON.stringify({ order }) } }],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: JSON.stringify({ order, items: ["kettle", "mug", "tea"], ships, note: "gift wrap" }),
      },
      { role: "assistant", content: `Order ${order} has a kettle, a mug and tea, gift-wrapped; it ships on ${ships}.` },
    );
  }
  messages.length = n;
  // close with an assistant answer; if that cut a tool exchange in half, drop its dangling call too
  messages[n - 1] = { role: "assistant", content: "Anything else?" };
  if (messages[n - 2]?.tool_calls) messages[n - 2] = { role: "user", content: "Thanks." };
  return messages;
}

const lastItem = (input) => (Array.isArray(input) ? input[input.length - 1] : undefined);

/**
 * `levels` agents on @openai/agents, each the previous one's `asTool()`: the innermost calls `deploy` (with
 * `needsApproval` when `approval`), each level above calls the one below, then answers. `halted` runs resume
 * through `RunState.toString()` → `RunState.fromString()` → `approve`; `deployed()` counts real deployments.
 */
export function agentsNested(levels, approval) {
  setTracingDisabled(true);
  let deployed = 0;
  const deploy = agentsTool({
    name: "deploy",
    description: "Deploys after a human approves",
    parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
    strict: false,
    needsApproval: approval,
    execute: async ({ target }) => (deployed++, `deployed to ${target}`),
  });
  const answer = (text, call) =>
    fakeModel((input) => (lastItem(input)?.type === "function_call_result" ? [assistant(text)] : [call]));
  let top = new Agent({
    name: "level1",
    instructions: "Deploy when asked.",
    tools: [deploy],
    model: answer("Deployed.", functionCall("call_deploy", "deploy", { target: "prod" })),
  });
  for (let i = 2; i <= levels; i++) {
    const below = top.asTool({ toolName: `ask_level${i - 1}`, toolDescription: "Delegates the deployment" });
    const call = functionCall(`call_level${i}`, `ask_level${i - 1}`, { input: "deploy to prod" });
    top = new Agent({
      name: `level${i}`,
      instructions: "Delegate.",
      tools: [below],
      model: answer(`Done ${i}.`, call),
    });
  }
  return {
    async run() {
      const first = await agentsRun(top, "Deploy to prod.");
      if (!approval) return first;
      const state = await RunState.fromString(top, first.state.toString());
      state.approve(state.getInterruptions()[0]);
      return agentsRun(top, state);
    },
    deployed: () => deployed,
    check: (done) => typeof done.finalOutput === "string" && done.finalOutput.startsWith("Done") === levels > 1,
  };
}
