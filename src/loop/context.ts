// What a run is given and what it accumulates: RunContext (read-only while it runs), LoopState, and the
// result built from a state.
import type { RunBase, RunResult, RunStatus, StreamEvent, ToolCallRecord, ToolResult, Usage } from "../types";
import type { ClientOptions } from "./options";
import type { MetricEvent, RunTelemetry } from "./telemetry";
import type { RunStorage } from "../storage/contract";
import type { Toolkit } from "../tools/types";
import type { RecordStore } from "../run-state/store";
import type { Wire } from "../wire/types";
import type { ToolSchema } from "../tools/schema/input-schema";

/** The client's options as a run reads them: checked once, with their defaults filled in. */
export interface ResolvedOptions extends ClientOptions {
  maxTurns: number;
  retries: number;
  retryBaseMs: number;
  completedTtlSeconds: number;
  pendingTtlSeconds: number;
  claimLeaseMs: number;
  streamIdleTimeoutMs: number;
  maxStreamLineBytes: number;
}

/** Where a run is, for the approvals it remembers: the run, and the conversation it is an exchange of. */
export interface ApprovalPlace {
  runId: string;
  conversationId?: string | undefined;
}

/** The approvals a run remembers (`answerApproval(id, { remember })`), kept in the client's storage. */
export interface ApprovalMemory {
  /** True when a remembered approval in the run's scopes covers this call: it runs without asking. */
  allowed(place: ApprovalPlace, tool: string, args: Record<string, unknown>): Promise<boolean>;
  /** Remembers an approval given with `remember` (and `sameArgs`) in its answer's `data`. */
  remember(
    place: ApprovalPlace,
    tool: string,
    args: Record<string, unknown>,
    data: Record<string, unknown>,
  ): Promise<void>;
}

/** Everything one run needs; read-only while it runs — what a callee changes is a parameter or a return value. */
export interface RunContext {
  readonly opts: ResolvedOptions;
  readonly wire: Wire;
  readonly apiKey: string | undefined;
  readonly toolkit: Toolkit | undefined;
  readonly storage: RunStorage;
  /** Where the run's durable record lives: the one way a run reads and writes it. */
  readonly records: RecordStore;
  readonly metrics: { record(event: MetricEvent): void };
  readonly stream: boolean;
  /** Aborted by `timeoutMs` or the caller's signal; absent when neither is set (nothing can abort the run). */
  readonly signal?: AbortSignal;
  readonly maxTurns: number;
  readonly warn: (message: string) => void;
  /** The approvals remembered for the run's conversation and owner. */
  readonly approvals?: ApprovalMemory;
  /** The run's `output` schema, compiled: the final answer is asked for as, and checked against, it. */
  readonly output?: ToolSchema;
  /** The client's telemetry for this run, when it has one. */
  readonly trace?: RunTelemetry;
}

/** What a run has accumulated; serialised into the run record when it halts. */
export interface LoopState {
  runId: string;
  model: string;
  system: string;
  /** Always balanced: an assistant turn is appended together with all its tool results. */
  messages: unknown[];
  /** Provider tool declarations (a `beforeLLM` hook may replace them). */
  tools: unknown[];
  toolCalls: ToolCallRecord[];
  turns: number;
  usage: Usage;
  text: string;
  conversationId?: string;
  startedAt: number;
  /** The provider refused strict mode for the run's output schema: its later calls ask without it. */
  strictRefused?: true;
}

export const zeroUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

export function addUsage(into: Usage, add: Usage): void {
  into.promptTokens += add.promptTokens;
  into.completionTokens += add.completionTokens;
  into.totalTokens += add.totalTokens;
}

type Extra<R extends RunResult> = Omit<R, keyof RunBase | "status"> & Partial<RunBase>;

/** The caller-facing result of `state` with `status` and that status's own fields. */
export function resultOf<S extends RunStatus>(
  state: LoopState,
  status: S,
  extra: Extra<Extract<RunResult, { status: S }>>,
): Extract<RunResult, { status: S }> {
  return {
    status,
    text: state.text,
    messages: state.messages.slice(),
    toolCalls: state.toolCalls.slice(),
    toolCallCount: state.toolCalls.length,
    turns: state.turns,
    usage: { ...state.usage },
    model: state.model,
    ...extra,
  } as Extract<RunResult, { status: S }>;
}

/** The `tool_result` event of a call's result. */
export const toolResult = ({
  call,
  result,
}: {
  call: { id: string; name: string };
  result: ToolResult;
}): StreamEvent => ({
  type: "tool_result",
  id: call.id,
  name: call.name,
  output: result.output,
  isError: result.isError,
});

export function newRunId(): string {
  return `run-${crypto.randomUUID()}`;
}
