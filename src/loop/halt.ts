// A run halts: it stops in the middle of a turn, durably. The record of that turn (turnRecord, also what a
// checkpoint writes), and the run's end as its caller sees it (endPending: the pending result and its events).
import type { StoredCall, RunRecord } from "../run-state/record";
import { openGroups } from "../run-state/record";
import type { PendingRequest, PendingResult, StreamEvent } from "../types";
import { resultOf, type LoopState, type RunContext } from "./context";
import type { CallOutcome } from "./execute-tools";

/** One call of a turn as the record keeps it: its result, or its open request (and the tool's state). */
export function storedCall(o: CallOutcome): StoredCall {
  const { call, args } = o;
  const base = { id: call.id, name: call.name, args, raw: call.raw };
  if (o.request) return { ...base, request: o.request, state: o.state }; // no state: JSON leaves it out
  return { ...base, result: o.result };
}

/**
 * The record of a run stopped in the middle of `assistant`'s turn — halted, or a checkpoint — with a copy
 * of the state's lists as they are now (the run goes on appending to its own).
 */
export function turnRecord(ctx: RunContext, state: LoopState, assistant: unknown, calls: StoredCall[]): RunRecord {
  return {
    v: 1,
    runId: state.runId,
    status: "suspended",
    style: ctx.wire.style,
    model: state.model,
    system: state.system,
    conversationId: state.conversationId,
    updatedAt: "",
    messages: state.messages.slice(),
    assistant,
    calls,
    turns: state.turns,
    usage: { ...state.usage },
    toolCalls: state.toolCalls.slice(),
    text: state.text,
    // JSON leaves out what is undefined: a record without a conversation, telemetry or output has no such field
    trace: ctx.trace?.context(),
    output: ctx.output?.json,
  };
}

/** Every open request of a stored turn, in tool-call order (relay calls merged into one request share it). */
export const openRequests = (calls: readonly StoredCall[]): PendingRequest[] => openGroups(calls).map((g) => g.request);

/**
 * The caller-facing result of a halt. Its `messages` end with the halted turn balanced by placeholder
 * results (each request's prompt), so they can be shown or replayed; resuming uses the stored record.
 */
export function pendingResult(
  state: LoopState,
  record: Pick<RunRecord, "assistant" | "calls">,
  ctx: RunContext,
): PendingResult {
  const requests = openRequests(record.calls);
  const first = requests[0]!;
  const placeholders = record.calls.map((c) => ({
    call: c,
    result: c.result ?? { output: c.request?.prompt ?? "", isError: true },
  }));
  const result = resultOf(state, "pending", { text: first.prompt, pending: first, requests, runId: state.runId });
  result.messages.push(record.assistant, ...ctx.wire.results(placeholders));
  return result;
}

/** Ends a run whose record was written halted: a stream first gets a `pending` event per open request. */
export function* endPending(
  ctx: RunContext,
  state: LoopState,
  record: Pick<RunRecord, "assistant" | "calls">,
): Generator<StreamEvent, PendingResult> {
  const result = pendingResult(state, record, ctx);
  if (ctx.stream) for (const request of result.requests!) yield { type: "pending", request, runId: state.runId };
  return result;
}
