// The agent's public shapes: its definition, its budget, what a delegation answers, how it is run.
import type { Client } from "../client";
import type { Answer, PendingRequest, RunResult, StreamEvent } from "../types";
import type { Hooks } from "../loop/options";
import type { MetricEvent } from "../loop/telemetry";
import type { RunOptions } from "../client/types";
import type { Tool, Toolkit } from "../tools/types";

/** The family's budget (§7D); every field optional. `maxTurns` defaults to 6, `maxDepth` to 3. */
export interface Budget {
  maxTurns?: number;
  maxTokens?: number;
  maxToolCalls?: number;
  maxWallMs?: number;
  maxChildren?: number;
  maxConcurrent?: number;
  maxDepth?: number;
}

/** The closed result vocabulary. */
export type ResultStatus = "done" | "pending" | "incomplete" | "interrupted" | "closed" | "timeout" | "error";

/** What a delegation (`task`, `wait`) answers. */
export interface TaskResult {
  status: ResultStatus;
  text: string;
  isError: boolean;
  /** The Request the child waits on, with `data.path`, while `status === "pending"`. */
  pending?: PendingRequest;
  turns: number;
  totalTokens: number;
}

export interface AgentOptions {
  /** One line saying what it does: its tool description and its line in a team's `task` description. */
  does: string;
  tools?: readonly Tool[] | Toolkit;
  /** Its system prompt. Default: the client's. */
  soul?: string;
  /** The agents (or their names, resolved in a runtime) its `task` tool may delegate to. No team, no `task`. */
  team?: readonly (Agent | string)[];
  budget?: Budget;
  /** Its model through the same client (same wire and key). Default (`"inherit"`): the client's. */
  model?: string;
  /** Answers the requests of this agent and of its descendants that nobody nearer answered. */
  waitFor?: (request: PendingRequest) => Promise<Answer>;
  onSpawn?: (id: string) => void;
  onClose?: (id: string, reason: string) => void;
  hooks?: Hooks;
  /** Where its runs' metric events go, in place of the client's (or the runtime's) `onMetric`. */
  onMetric?: (event: MetricEvent) => void;
}

export interface AgentRunOptions {
  client: Client;
  signal?: AbortSignal;
}

export interface AgentResumeOptions {
  client: Client;
  signal?: AbortSignal;
  token?: string;
  tokens?: string[];
}

export interface Agent {
  readonly name: string;
  readonly does: string;
  readonly options: Readonly<AgentOptions>;
  run(prompt: string, opts: AgentRunOptions): Promise<RunResult>;
  stream(prompt: string, opts: AgentRunOptions): AsyncIterable<StreamEvent>;
  resume(runId: string, answer: Answer | readonly Answer[], opts: AgentResumeOptions): Promise<RunResult>;
  /** The agent as a tool (source `"agent"`): `{ prompt }` in, its final text out. */
  asTool(opts: { client: Client }): Tool;
  /**
   * What a client run of this agent at the root of its tree passes the client (its toolkit with `task`, soul,
   * model, interpreter): `createRunHandler({ client, agent })` runs and resumes it through these.
   */
  runOptions(client: Client): RunOptions;
}
