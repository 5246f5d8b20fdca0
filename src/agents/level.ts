// One agent level: an agent run IS a client run — its tools and its `task` tool as the toolkit, its soul as
// the system prompt, its model, its interpreter (the nearest `waitFor`: its own, else none below the root so
// the request escalates, the client's at the root) — and its result with every descendant's usage rolled up.
import { ConfigError } from "../errors";
import type { Client } from "../client";
import type { Answer, ResumeOptions, RunOptions, RunResult, StreamEvent, Tool, Usage } from "../types";
import type { Agent, AgentOptions } from "./types";
import { taskTool } from "./task";

/** An agent as it runs at one place of the tree. */
export interface Level {
  agent: Agent;
  client: Client;
  /** Its handle path: `["root", "planner.1"]`, `["root", "planner.1", "booker.1"]`. */
  path: string[];
}

/** The toolkit of a level: the agent's tools, then `task` when it has a team. */
export function toolsOf(level: Level): Tool[] {
  const { tools, team } = level.agent.options;
  const own: Tool[] =
    tools === undefined ? [] : Array.isArray(tools) ? [...tools] : (tools as { tools(): Tool[] }).tools();
  return team && team.length > 0 ? [...own, taskTool(level)] : own;
}

/** What a run of this level passes the client (the same for a resume, less what the record keeps). */
function levelOptions(level: Level): RunOptions {
  const o: AgentOptions = level.agent.options;
  const root = level.path.length <= 2;
  const waitFor = o.waitFor ?? (root ? undefined : null);
  return {
    toolkit: toolsOf(level),
    ...(o.soul === undefined ? {} : { systemPrompt: o.soul }),
    ...(o.model === undefined || o.model === "inherit" ? {} : { model: o.model }),
    ...(waitFor === undefined ? {} : { waitFor }),
  };
}

const add = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

/** The usage a run's `task` calls report (their children's, already rolled up), over the run's own. */
export function rolledUp(result: RunResult): RunResult {
  let usage = result.usage;
  for (const call of result.toolCalls) {
    const child = call.metadata?.usage as Usage | undefined;
    if (call.name === "task" && child && typeof child.totalTokens === "number") usage = add(usage, child);
  }
  return usage === result.usage ? result : { ...result, usage };
}

export async function runLevel(level: Level, prompt: string, extra: RunOptions = {}): Promise<RunResult> {
  return rolledUp(await level.client.run(prompt, { ...levelOptions(level), ...extra }));
}

export async function* streamLevel(level: Level, prompt: string, extra: RunOptions = {}): AsyncGenerator<StreamEvent> {
  for await (const event of level.client.stream(prompt, { ...levelOptions(level), ...extra }))
    yield event.type === "done" ? { ...event, result: rolledUp(event.result) } : event;
}

export async function resumeLevel(
  level: Level,
  runId: string,
  answer: Answer | readonly Answer[],
  extra: ResumeOptions = {},
): Promise<RunResult> {
  const { toolkit, waitFor } = levelOptions(level);
  const opts: ResumeOptions = { toolkit, ...(waitFor === undefined ? {} : { waitFor }), ...extra };
  return rolledUp(await level.client.resume(runId, answer, opts));
}

/** The client an agent is run through, checked where it is passed. */
export function clientOf(fn: string, opts: { client?: Client } | undefined): Client {
  const client = opts?.client;
  if (typeof client?.run !== "function" || typeof client.resume !== "function")
    throw new ConfigError("client", `toolnexus: ${fn} needs { client } — a client from createClient()`);
  return client;
}
