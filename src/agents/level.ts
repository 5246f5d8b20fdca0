// One agent level: an agent at one place of the tree, its own tools, and a run's usage with every
// descendant's rolled up (the runs themselves are in task.ts, beside the task tool that starts them).
import { ConfigError } from "../errors";
import type { Client } from "../client";
import type { RunResult, Usage } from "../types";
import type { Tool } from "../tools/types";
import type { Ledger } from "./ledger";
import type { TreeGuess } from "./tree";
import type { Agent } from "./types";

/** An agent as it runs at one place of the tree. */
export interface Level {
  agent: Agent;
  client: Client;
  /** Its handle path: `["root", "planner.1"]`, `["root", "planner.1", "booker.1"]`. */
  path: string[];
  /** Its budget and spend in this process (ledger.ts); a root's is made when it runs. */
  ledger?: Ledger;
  /** Its run is a new one (not a resume): no tree is stored for it yet. */
  fresh?: boolean;
  /** What this process last wrote of its run's tree (tree.ts): the first guess of the next write. */
  tree?: TreeGuess;
}

/** An agent's own tools, as a list. */
export function ownTools(agent: Agent): Tool[] {
  const { tools } = agent.options;
  if (tools === undefined) return [];
  return Array.isArray(tools) ? [...(tools as readonly Tool[])] : (tools as { tools(): Tool[] }).tools();
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

/** The client an agent is run through, checked where it is passed. */
export function clientOf(fn: string, opts: { client?: Client } | undefined): Client {
  const client = opts?.client;
  if (typeof client?.run !== "function" || typeof client.resume !== "function")
    throw new ConfigError("client", `toolnexus: ${fn} needs { client } — a client from createClient()`);
  return client;
}
