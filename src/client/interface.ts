// The client's shape: its verbs and read-only parts, as `createClient` (client.ts) assembles them.
import type { Answer, RunResult, StreamEvent } from "../types";
import type { Clock } from "../loop/options";
import type { RunInspection } from "../loop/inspect";
import type { RunStorage } from "../storage/contract";
import type { ToolInputSchema } from "../tools/types";
import type { ExpireOptions, ExpireResult } from "./expire";
import type { TranslateRequest, TranslateResult } from "./translate";
import type { AskOptions, Prompt, ResumeOptions, RunOptions, Typed, WithOutput } from "./types";

/** A conversation's id (default: a fresh one) and the toolkit its exchanges run with. */
export interface ConversationOptions {
  id?: string;
  toolkit?: RunOptions["toolkit"];
}

export interface Conversation {
  readonly id: string;
  send(prompt: Prompt, opts?: { signal?: AbortSignal }): Promise<RunResult>;
  messages(): Promise<unknown[]>;
  reset(): Promise<void>;
}

/** What `inspect` answers: where the run stands, its open requests, and (with a resumeSecret) their tokens. */
export interface Inspection extends RunInspection {
  /** The token for the first open request. */
  token?: string;
  /** A token per open request, by request id. */
  tokens?: Record<string, string>;
}

export interface Client {
  run<S extends ToolInputSchema>(prompt: Prompt, opts: WithOutput<RunOptions, S>): Promise<Typed<S>>;
  run(prompt: Prompt, opts?: RunOptions): Promise<RunResult>;
  stream<S extends ToolInputSchema>(
    prompt: Prompt,
    opts: WithOutput<RunOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  stream(prompt: Prompt, opts?: RunOptions): AsyncIterable<StreamEvent>;
  /** Answers one or several open requests of a halted run, in any order. */
  resume<S extends ToolInputSchema>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts: WithOutput<ResumeOptions, S>,
  ): Promise<Typed<S>>;
  /**
   * Without `output`, the run's stored schema checks the final answer; name its type to have `output` typed:
   * `resume<Forecast>(runId, answer)`.
   */
  resume<O = unknown>(runId: string, answer: Answer | readonly Answer[], opts?: ResumeOptions): Promise<RunResult<O>>;
  resumeStream<S extends ToolInputSchema>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts: WithOutput<ResumeOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  resumeStream<O = unknown>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts?: ResumeOptions,
  ): AsyncIterable<StreamEvent<RunResult<O>>>;
  /**
   * Where a stored run stands and what it waits for (a reloaded page finds its questions again); undefined:
   * unknown run. With `toolkit`, a run whose deadline passed is continued first (semantics 8).
   */
  inspect(runId: string, opts?: InspectOptions): Promise<Inspection | undefined>;
  /** Continues every run whose deadline passed (at most `limit`), found through the storage's deadline index. */
  expire(opts: ExpireOptions): Promise<ExpireResult>;
  ask(prompt: Prompt, opts?: AskOptions): Promise<RunResult>;
  /**
   * Discards a conversation: its transcript, the run it waits on, and the approvals remembered for it. With
   * `owner`, the conversation of that signed-in user at a createRunHandler({ owner }) endpoint.
   */
  forget(id: string, opts?: { owner?: string }): Promise<void>;
  conversation(opts?: ConversationOptions): Conversation;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  metrics(): string;
  /** The storage its runs and conversations live in (an edge handler keeps its event logs there too). */
  readonly storage: RunStorage;
  /**
   * How long a halted run is kept, in seconds (the `pendingTtlSeconds` option; 0 = no expiry). Read-only; an
   * edge handler keeps its event logs and owner stamps as long by default.
   */
  readonly pendingTtlSeconds: number;
  /** The client's time source (the `clock` option, else the system clock): deadlines, TTLs and leases read it. */
  readonly clock: Clock;
}

export interface InspectOptions {
  /** The run's tools: a run whose deadline passed is continued before it is reported. */
  toolkit?: RunOptions["toolkit"];
}
