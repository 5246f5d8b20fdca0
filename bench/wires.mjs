// Loop overhead per turn on the Responses API and Gemini wires, beside ai's provider for the same API:
// the three-turn weather script (call, call, answer) against an in-process fetch that answers in the
// provider's own JSON, so each turn builds and parses the real request and response bodies on both sides.
// A peer provider that is not installed is reported as such (on Node 20 only @ai-sdk/openai is).
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from "ai";
import { requireOurs } from "./ours.mjs";
import { CALLS, FINAL, PROMPT } from "./peers.mjs";
import { alternate, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const TURNS = 3;
const SCHEMA = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};
const DESCRIPTION = "Current weather for a city";
const weatherOf = (city) => `${city}: ${city === "Paris" ? "21°C, sunny" : "33°C, humid"}`;
const reply = (body) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };

/** OpenAI's Responses API: the next call once per function_call_output sent, then the answer. */
async function responsesFetch(_url, init) {
  const { input } = JSON.parse(init.body);
  const call = CALLS[input.filter((i) => i.type === "function_call_output").length];
  const item = call
    ? {
        type: "function_call",
        id: `fc_${call.id}`,
        call_id: call.id,
        name: "weather",
        arguments: JSON.stringify({ city: call.city }),
        status: "completed",
      }
    : {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: FINAL, annotations: [] }],
      };
  return reply({
    id: "resp_1",
    object: "response",
    created_at: 1765591383,
    status: "completed",
    model: "gpt-5-mini",
    output: [item],
    usage,
  });
}

/** Gemini's generateContent: the next call once per functionResponse sent, then the answer. */
async function geminiFetch(_url, init) {
  const { contents } = JSON.parse(init.body);
  const answered = contents.flatMap((c) => c.parts).filter((p) => p.functionResponse).length;
  const call = CALLS[answered];
  const part = call ? { functionCall: { name: "weather", args: { city: call.city } } } : { text: FINAL };
  return reply({
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  });
}

const WIRES = [
  {
    style: "openai-responses",
    model: "gpt-5-mini",
    fetch: responsesFetch,
    peer: "@ai-sdk/openai",
    make: (m, fetch) => m.createOpenAI({ apiKey: "k", fetch }).responses("gpt-5-mini"),
  },
  {
    style: "gemini",
    model: "gemini-2.5-flash",
    fetch: geminiFetch,
    peer: "@ai-sdk/google",
    make: (m, fetch) => m.createGoogleGenerativeAI({ apiKey: "k", fetch })("gemini-2.5-flash"),
  },
];

async function ours(tn, wire) {
  const weather = tn.defineTool({
    name: "weather",
    description: DESCRIPTION,
    inputSchema: SCHEMA,
    execute: async ({ city }) => weatherOf(city),
  });
  const client = tn.createClient({
    baseUrl: "http://127.0.0.1:9/v1",
    style: wire.style,
    model: wire.model,
    apiKey: "k",
    fetch: wire.fetch,
  });
  return {
    run: () => client.run(PROMPT, { toolkit: [weather] }),
    check: (r) => r.status === "done" && r.text === FINAL && r.toolCalls.length === 2,
  };
}

async function peer(wire) {
  let mod;
  try {
    mod = await import(wire.peer);
  } catch {
    return undefined; // not installed here
  }
  const model = wire.make(mod, wire.fetch);
  const tools = {
    weather: aiTool({
      description: DESCRIPTION,
      inputSchema: jsonSchema(SCHEMA),
      execute: async ({ city }) => weatherOf(city),
    }),
  };
  return {
    run: () => generateText({ model, prompt: PROMPT, tools, stopWhen: stepCountIs(10) }),
    check: (r) => r.text === FINAL && r.steps.length === 3,
  };
}

export async function bench({ smoke }) {
  const tn = await requireOurs(["createClient", "defineTool"]);
  const runs = smoke ? 2 : 50;
  const rows = [];
  const checks = [];
  const results = {};
  for (const wire of WIRES) {
    const participants = [{ name: `toolnexus ${wire.style}`, ...(await ours(tn, wire)) }];
    const theirs = await peer(wire);
    if (theirs) participants.push({ name: `ai + ${wire.peer}`, ...theirs });
    for (const p of participants)
      checks.push({ name: `wires: ${p.name} completes the script`, ok: p.check(await p.run()) });
    const cases = participants.map((p) => ({
      name: p.name,
      fn: async () => {
        for (let i = 0; i < runs; i++) await p.run();
        return runs * TURNS;
      },
    }));
    const time = await alternate(cases, smoke ? { warmup: 0, repeats: 1 } : { warmup: 5, repeats: 30 });
    const own = stats(time[participants[0].name]);
    for (const p of participants) {
      const s = stats(time[p.name]);
      results[p.name] = { time: s };
      checks.push({ name: `wires: ${p.name} has numbers`, ok: isMeasured(s.median) });
      rows.push([p.name, `**${fmtSpread(s)}**`, ratio(own.median, s.median)]);
    }
    if (!theirs) rows.push([`ai + ${wire.peer}`, "not installed here", "—"]);
  }
  const text = [
    `${runs} runs per sample × 3 turns (2 tool calls + 1 answer); an in-process fetch answers in the provider's JSON, no network. ` +
      "Both sides build each request body and parse each reply; time = sample time / turns.",
    "",
    table(["SDK and wire", "Time per turn", "Ours / this (time)"], rows),
  ].join("\n");
  return { id: "wires", title: "Loop overhead per turn on the Responses API and Gemini wires", text, results, checks };
}
