import { StorageError } from "../errors";
import { saveRecord, type HaltedCall, type RunRecord } from "../run-state/record";
import type { PendingRequest, RunResult, ToolResult } from "../types";
import type { ToolCall } from "../wire/types";
import { resultOf, runKey, type LoopState, type RunContext } from "./context";

export interface TurnCall {
  call: ToolCall;
  args: Record<string, unknown>;
  result: ToolResult;
  /** Set while the call waits for an answer. */
  request?: PendingRequest;
}

/** The record of a run halted in the middle of `assistant`'s turn. */
export function haltRecord(ctx: RunContext, state: LoopState, assistant: unknown, calls: TurnCall[]): RunRecord {
  const halted: HaltedCall[] = calls.map(({ call, args, result, request }) =>
    request
      ? { id: call.id, name: call.name, args, raw: call.raw, request }
      : { id: call.id, name: call.name, args, raw: call.raw, result },
  );
  return {
    v: 1,
    runId: state.runId,
    status: "suspended",
    style: ctx.wire.style,
    model: state.model,
    system: state.system,
    ...(state.conversationId === undefined ? {} : { conversationId: state.conversationId }),
    updatedAt: "",
    messages: state.messages,
    assistant,
    calls: halted,
    turns: state.turns,
    usage: state.usage,
    toolCalls: state.toolCalls,
    text: state.text,
  };
}

/**
 * The caller-facing result of a halt. Its `messages` end with the halted turn balanced by placeholder
 * results (the Request's prompt), so they can be shown or replayed; resuming uses the stored record.
 */
export function pendingResult(
  ctx: RunContext,
  state: LoopState,
  assistant: unknown,
  calls: TurnCall[],
  request: PendingRequest,
): RunResult {
  const placeholders = calls.map((c) =>
    c.request ? { ...c, result: { output: c.request.prompt, isError: true } } : c,
  );
  const result = resultOf(state, "pending", { text: request.prompt, pending: request, runId: state.runId });
  result.messages.push(assistant, ...ctx.wire.results(placeholders));
  return result;
}

/**
 * Writes a run record. When this run owns a stored record (`ctx.owned`, set by a resume's claim), the
 * write is a compare-and-set against it, so a racer can never be overwritten silently. A failed write
 * rejects with StorageError carrying the serialized record, so nothing is lost.
 */
export async function writeRecord(ctx: RunContext, record: RunRecord, opts?: { ttlSeconds?: number }): Promise<string> {
  let value: string;
  try {
    value = saveRecord(record);
  } catch (cause) {
    throw new StorageError("set", runKey(record.runId), cause); // something in the run cannot be stored as JSON
  }
  return writeText(ctx, record.runId, value, opts);
}

/** Writes a record already serialized, with writeRecord's guarantees. */
export async function writeText(
  ctx: RunContext,
  runId: string,
  value: string,
  opts?: { ttlSeconds?: number },
): Promise<string> {
  const key = runKey(runId);
  const expected = ctx.owned;
  const op = expected !== undefined && ctx.storage.compareAndSet ? "compareAndSet" : "set";
  let wrote = true;
  try {
    if (op === "compareAndSet") wrote = await ctx.storage.compareAndSet!(key, expected, value, opts);
    else await ctx.storage.set(key, value, opts);
  } catch (cause) {
    throw new StorageError(op, key, cause, value);
  }
  if (!wrote)
    throw new StorageError(op, key, new Error("the stored run was changed by someone else during this resume"), value);
  ctx.owned = value;
  return value;
}
