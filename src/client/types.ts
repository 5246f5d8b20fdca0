// What a run or a resume is called with: the prompt and the per-run options.
import type { Answer, ContentPart, OutputRunResult, PendingRequest } from "../types";
import type { Hooks } from "../loop/options";
import type { MetricEvent } from "../loop/telemetry";
import type { InferSchema, ToolInputSchema, ToolkitLike } from "../tools/types";

/** Options with an `output` schema: the result's `output` is typed from it. */
export type WithOutput<O, S extends ToolInputSchema> = O & { output: S };
/** The result of a run with an `output` schema `S`. */
export type Typed<S> = OutputRunResult<InferSchema<S>>;

/** What a run starts from: text, or content parts (text, images, files) for one user message. */
export type Prompt = string | readonly ContentPart[];

export interface RunOptions {
  toolkit?: ToolkitLike;
  history?: readonly unknown[];
  signal?: AbortSignal;
  /**
   * The final answer's schema (valibot, zod, any Standard Schema, or `jsonSchema<T>()`): asked of the model
   * in the provider's structured-output mode, validated, and returned typed as `result.output`.
   */
  output?: ToolInputSchema;
  /**
   * Shallow-merged over the client's `requestParams` for this run's model calls (the run's keys win);
   * `messages`, `tools` and `stream` are refused as they are there.
   */
  requestParams?: Record<string, unknown>;
  /**
   * Runs as the next exchange of this conversation (what `ask(prompt, { id })` does): its transcript is the
   * history, and the outcome — or the run it now waits on — is saved to it with a compare-and-set.
   */
  conversationId?: string;
  /**
   * The new run's id, chosen by the caller (an edge handler that must key the run's event log before its
   * first event): 8 to 128 letters, digits, `-`, `_`, `.` or `:`, and fresh — e.g. `run-${crypto.randomUUID()}`.
   * A guessable or reused id lets others reach the run. Default: a fresh random id.
   */
  runId?: string;
  /**
   * Who the run is for (a user id; createRunHandler passes its `owner(request)`): approvals remembered with
   * `remember: "owner"` hold for this owner's runs alone.
   */
  owner?: string;
  /** This run's system prompt in place of the client's (an agent's soul); kept with a halted run. */
  systemPrompt?: string;
  /** This run's model in place of the client's, through the same wire and key (an agent's `model`). */
  model?: string;
  /** This run's interpreter in place of the client's `waitFor`; `null`: none, every request halts durably. */
  waitFor?: ((request: PendingRequest) => Promise<Answer>) | null;
  /** This run's turn limit in place of the client's `maxTurns` (an agent's budget). */
  maxTurns?: number;
  /** This run's hooks, field by field in place of the client's (an agent's `hooks`). */
  hooks?: Hooks;
  /** Where this run's metric events go, in place of the client's `onMetric` (an agent's); `client.metrics()` counts them all the same. */
  onMetric?: (event: MetricEvent) => void;
  /** The agent this run is (set by toolnexus/agents): its telemetry span is `invoke_agent <agent>`. */
  agent?: string;
  /**
   * A run started inside a tool: that call's `ctx.traceParent`, so the run's telemetry span is a child of the
   * call's `execute_tool` span (an agent's `task` passes it; opaque, from the client's telemetry).
   */
  traceParent?: unknown;
}

export interface ResumeOptions {
  toolkit?: ToolkitLike;
  signal?: AbortSignal;
  /**
   * Optional: the halted run keeps its `output` schema (as JSON Schema) and the resume validates the final
   * answer against it. Passed again, it types `result.output` and validates with the schema itself (its
   * library's checks and transforms), in place of the stored one.
   */
  output?: ToolInputSchema;
  /** Merged over the client's `requestParams` for the resumed run's model calls; a halt does not keep a run's own. */
  requestParams?: Record<string, unknown>;
  /**
   * A token from `createResumeToken` (or `result.token`) for the one request this resume answers; checked
   * against the client's `resumeSecret`. It lets no answer to another request through: use `tokens` for several.
   */
  token?: string;
  /** One token per answer, in the order of the answers, each issued for that answer's request. */
  tokens?: string[];
  /** Who the run is for, as when it started (see `RunOptions.owner`). */
  owner?: string;
  /** The resumed run's interpreter in place of the client's `waitFor` (see `RunOptions.waitFor`). */
  waitFor?: ((request: PendingRequest) => Promise<Answer>) | null;
  /** Where the resumed run's metric events go, in place of the client's `onMetric` (see `RunOptions.onMetric`). */
  onMetric?: (event: MetricEvent) => void;
  /** The agent this run is (see `RunOptions.agent`). */
  agent?: string;
  /** A resume inside a tool: that call's `ctx.traceParent` (see `RunOptions.traceParent`). */
  traceParent?: unknown;
}

export interface AskOptions extends RunOptions {
  /** A conversation id: its transcript is loaded from and saved to the client's storage. */
  id?: string;
}
