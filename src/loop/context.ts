import type {
  Answer,
  ClientOptions,
  PendingRequest,
  MetricEvent,
  RunBase,
  RunResult,
  RunStatus,
  RunStorage,
  ToolCallRecord,
  ToolResult,
  Toolkit,
  Usage,
} from "../types";
import type { ToolCall, Wire } from "../wire/types";

/** One call of a turn and what it has come to: a result, a suspension, or (in a checkpoint) a start. */
export interface CallOutcome {
  call: ToolCall;
  /** Arguments after `beforeTool`: a re-execution uses exactly these. */
  args: Record<string, unknown>;
  result: ToolResult;
  /** Set when the call suspended. */
  request?: PendingRequest;
  /** The tool's private state for its re-execution (`pending(request, { state })`). */
  state?: unknown;
  /** A checkpoint's mark: the tool started and its result is not known yet. */
  started?: true;
  /** The answer a started call runs with. */
  answer?: Answer;
}
import type { ToolSchema } from "../tools/schema/input-schema";

/** The client's options as a run reads them: checked once, with their defaults filled in. */
export interface ResolvedOptions extends ClientOptions {
  maxTurns: number;
  retries: number;
  retryBaseMs: number;
  completedTtlSeconds: number;
  claimLeaseMs: number;
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

/** Everything one run needs that does not change while it runs (resolved client options). */
export interface RunContext {
  opts: ResolvedOptions;
  wire: Wire;
  apiKey: string | undefined;
  toolkit: Toolkit | undefined;
  storage: RunStorage;
  metrics: { record(event: MetricEvent): void };
  stream: boolean;
  /** Aborted by `timeoutMs` or the caller's signal; absent when neither is set (nothing can abort the run). */
  signal?: AbortSignal;
  maxTurns: number;
  warn: (message: string) => void;
  /** The approvals remembered for the run's conversation and owner. */
  approvals?: ApprovalMemory;
  /** The run's `output` schema, compiled: the final answer is asked for as, and checked against, it. */
  output?: ToolSchema;
  /** The stored record this run owns (after a resume claimed it); later writes compare-and-set against it. */
  owned?: string;
  /**
   * Set while a resumed run owns its record: saves the turn in progress — the calls marked as started
   * before any runs, then with their results — and renews the lease.
   */
  checkpoint?: (state: LoopState, assistant: unknown, calls: CallOutcome[]) => Promise<void>;
  /** Called once the run wrote its record as halted (suspended): it no longer owns it. */
  released?: () => void;
  /**
   * What a resumed run's later halt keeps of the answers it applied, so that replaying them gets the run
   * as they left it (the kept outcome of a suspension that led to another).
   */
  carry?: { answered?: { requestId: string; digest: string }; applied?: string[] };
}

/**
 * Lets go of what a finished run's context still points to: the stored text it owned and the claim's
 * closures. V8 allocates an object that has often outlived a minor collection (as a run's context does)
 * straight in the old generation; a dead one there keeps whatever it points to alive through every minor
 * collection until the next major one, so each resumed run's transcript was copied and promoted, and the
 * collector became the largest part of what a suspension costs.
 */
export function endRun(ctx: RunContext): void {
  ctx.owned = ctx.checkpoint = ctx.released = ctx.carry = undefined;
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

export function newRunId(): string {
  return `run-${crypto.randomUUID()}`;
}
