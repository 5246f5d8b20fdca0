// A three-level tree on an in-process model: coordinator → planner → booker, whose `book_table` needs an
// approval. Each agent has a model of its own, so the script knows who is asking; every model call and every
// real booking is counted, so a test sees whether anything ran twice.
import { createInProcessClient, defineTool, memoryStorage, type GenerateRequest, type RunStorage } from "toolnexus";
import { agent, type Agent, type AgentOptions } from "toolnexus/agents";

export interface Counts {
  calls: Record<string, number>;
  booked: string[];
}

/** The tool messages of a request's transcript, in order. */
export const toolMessages = (req: GenerateRequest): string[] =>
  (req.messages as { role: string; content: unknown }[]).filter((m) => m.role === "tool").map((m) => String(m.content));

type Script = (
  req: GenerateRequest,
  tools: string[],
) => ReturnType<Parameters<typeof createInProcessClient>[0]["generate"]>;

/** The default scripts: each level delegates once (or books), then reports what its tool messages say. */
export const scripts: Record<string, Script> = {
  "m-coord": (_req, tools) =>
    tools.length === 0
      ? { toolCalls: [{ id: "c1", name: "task", arguments: { agent: "planner", prompt: "plan dinner" } }] }
      : { content: `coord: ${tools.join(" + ")}` },
  "m-planner": (_req, tools) =>
    tools.length === 0
      ? { toolCalls: [{ id: "p1", name: "task", arguments: { agent: "booker", prompt: "book Friday" } }] }
      : { content: `planned: ${tools.join(" + ")}` },
  "m-booker": (_req, tools) =>
    tools.length === 0
      ? { toolCalls: [{ id: "b1", name: "book_table", arguments: { day: "friday" } }] }
      : { content: `booker: ${tools.join(" + ")}` },
};

/** A client on `storage` whose model follows `script` (by the model each agent asks for), 10 tokens a call. */
export function clientOn(storage: RunStorage, counts: Counts, script: Record<string, Script> = scripts, extra = {}) {
  return createInProcessClient({
    model: "m-default",
    storage,
    claimLeaseMs: 25,
    ...extra,
    generate: (req) => {
      counts.calls[req.model] = (counts.calls[req.model] ?? 0) + 1;
      const out = script[req.model]!(req, toolMessages(req));
      return { ...out, usage: { promptTokens: 6, completionTokens: 4 } };
    },
  });
}

export function world(
  opts: { planner?: Partial<AgentOptions>; booker?: Partial<AgentOptions>; explore?: Partial<AgentOptions> } = {},
) {
  const counts: Counts = { calls: {}, booked: [] };
  const bookTable = defineTool({
    name: "book_table",
    description: "books a table",
    inputSchema: { type: "object", properties: { day: { type: "string" } } },
    needsApproval: true,
    execute: (args) => {
      counts.booked.push(String(args.day));
      return `table booked for ${String(args.day)}`;
    },
  });
  const booker: Agent = agent("booker", {
    does: "books tables",
    model: "m-booker",
    tools: [bookTable],
    ...opts.booker,
  });
  const explore = agent("explore", { does: "read-only research", model: "m-booker", ...opts.explore });
  const planner = agent("planner", {
    does: "plans trips",
    model: "m-planner",
    team: [explore, booker],
    ...opts.planner,
  });
  const coordinator = agent("coordinator", { does: "coordinates", model: "m-coord", team: [planner] });
  return { counts, booker, explore, planner, coordinator, storage: memoryStorage() };
}
