// A runner for the family's sub-agent fixtures (schema `toolnexus-subagent-fixture/v1`): the registry becomes
// agents, the fixture's tools become tools, and its mock LLM (per-model scripts, fixed usage per call) answers
// OpenAI chat completions through the client's own fetch — so every model call is counted, a blocking one
// ends when the run's signal aborts, and the most calls in flight at once is observed.
import { createClient, defineTool, memoryStorage, pending, type Tool } from "toolnexus";
import { agent, type Agent, type AgentOptions } from "toolnexus/agents";

export type Json = Record<string, any>;

interface Rule {
  whenToolMsgs?: number | string;
  whenNoToolMsgContains?: string;
  whenToolMsgContains?: string;
  always?: boolean;
  toolCalls?: { name: string; args: Json }[];
  text?: string;
  blocksUntil?: string;
}

/** Resolves a fixture's `$ref` (`../subagent-x/fixture.json#/a/b`) against the loaded fixtures. */
export function resolveRef(value: any, fixtures: Record<string, Json>): any {
  if (!value || typeof value !== "object" || typeof value.$ref !== "string") return value;
  const [file, pointer] = value.$ref.split("#");
  const name = /subagent-[a-z-]+/.exec(file)![0];
  let out: any = fixtures[name];
  for (const part of (pointer ?? "").split("/").filter(Boolean)) out = out[part];
  return resolveRef(out, fixtures);
}

const matches = (rule: Rule, tools: string[]): boolean => {
  if (rule.always) return true;
  if (rule.whenNoToolMsgContains !== undefined) return !tools.some((t) => t.includes(rule.whenNoToolMsgContains!));
  if (rule.whenToolMsgContains !== undefined) return tools.some((t) => t.includes(rule.whenToolMsgContains!));
  if (rule.whenToolMsgs === 0) return tools.length === 0;
  if (rule.whenToolMsgs === ">=1") return tools.length >= 1;
  return false;
};

/** A rule's text, its placeholders filled from the transcript. */
function textOf(template: string, tools: string[], lastUser: string): string {
  return template
    .replace("<join all tool msg contents with ' + '>", tools.join(" + "))
    .replace("<first tool msg content>", tools[0] ?? "")
    .replace("<last tool msg content>", tools.at(-1) ?? "")
    .replace("<count of numbered inbox items in last user msg>", String((lastUser.match(/^\d+\. /gm) ?? []).length));
}

export interface MockLLM {
  fetch: typeof globalThis.fetch;
  calls: Record<string, number>;
  inFlight: number;
  maxInFlight: number;
}

/** The fixture's mock LLM as a fetch speaking OpenAI chat completions. */
export function mockLLM(spec: Json, fixtures: Record<string, Json>): MockLLM {
  const usage = spec.usagePerCall;
  const scripts: Record<string, Rule[]> = {};
  for (const [model, rules] of Object.entries(spec.scripts)) scripts[model] = resolveRef(rules, fixtures);
  const m: MockLLM = { calls: {}, inFlight: 0, maxInFlight: 0, fetch: undefined as never };
  m.fetch = (async (_url: unknown, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    const model = String(body.model);
    m.calls[model] = (m.calls[model] ?? 0) + 1;
    m.inFlight++;
    m.maxInFlight = Math.max(m.maxInFlight, m.inFlight);
    try {
      const messages = body.messages as { role: string; content: unknown }[];
      const tools = messages.filter((x) => x.role === "tool").map((x) => String(x.content));
      const lastUser = String(messages.filter((x) => x.role === "user").at(-1)?.content ?? "");
      const rule = (scripts[model] ?? []).find((r) => matches(r, tools));
      if (!rule) throw new Error(`no rule of ${model} matches ${JSON.stringify(tools)}`);
      await new Promise((resolve) => setTimeout(resolve, 1)); // calls in flight overlap as real ones do
      if (rule.blocksUntil)
        await new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
      const calls = (rule.toolCalls ?? []).map((c, i) => ({
        id: `call_${m.calls[model]}_${i}`,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      }));
      const message = {
        role: "assistant",
        content: rule.text === undefined ? null : textOf(rule.text, tools, lastUser),
        ...(calls.length ? { tool_calls: calls } : {}),
      };
      const finish = calls.length ? "tool_calls" : "stop";
      return Response.json({
        id: "x",
        object: "chat.completion",
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    } finally {
      m.inFlight--;
    }
  }) as typeof globalThis.fetch;
  return m;
}

/** The fixture's tools, by the behaviour each describes. */
function toolOf(name: string): Tool {
  if (name === "check_secret")
    return defineTool({
      name,
      description: "needs approval",
      execute: (_args, ctx) =>
        ctx.answer?.ok ? "secret-token" : pending({ kind: "approval", prompt: "approve secret access?" }),
    });
  return defineTool({
    name,
    description: "looks up",
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    execute: (args) => `data(${String(args.q)})`,
  });
}

/** The registry as agents (team by name, resolved in the runtime); `extra` adds options per agent. */
export function agentsOf(
  fixture: Json,
  override: Json = {},
  extra: Record<string, Partial<AgentOptions>> = {},
): Agent[] {
  return Object.entries(fixture.registry as Record<string, Json>).map(([name, d]) => {
    const def = { ...d, ...override[name] };
    return agent(name, {
      does: def.does,
      model: def.model,
      ...(def.team ? { team: def.team } : {}),
      ...(def.tools ? { tools: def.tools.map(toolOf) } : {}),
      ...(def.budget ? { budget: def.budget } : {}),
      ...(def.waitFor ? { waitFor: async (request) => ({ id: request.id, ok: true }) } : {}),
      ...extra[name],
    });
  });
}

export const clientFor = (llm: MockLLM) =>
  createClient({
    baseUrl: "https://llm.test/v1",
    style: "openai",
    model: "m",
    apiKey: "k",
    fetch: llm.fetch,
    retries: 0,
    storage: memoryStorage(),
  });

/** A handle's transitions, in order, from the runtime's trace (`<from>→<to>`). */
export function transitions(trace: readonly string[], id: string): string[] {
  return trace
    .filter((line) => line.startsWith(`${id}: `))
    .map((line) => /^(\w*)→(\w+)/.exec(line.slice(id.length + 2)))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}→${m[2]}`);
}

/** Expected transitions match: `→closed` matches any state going to closed. */
export function sameTransitions(actual: string[], expected: string[]): boolean {
  return (
    actual.length === expected.length &&
    expected.every((e, i) => (e.startsWith("→") ? actual[i]!.endsWith(e) : actual[i] === e))
  );
}
