// Writing the run record: when a run halts, and at every checkpoint of a resumed run that owns its record.
import { StorageError } from "../errors";
import { runKey } from "../run-state/keys";
import { openGroups, saveRecord, type HaltedCall, type RunRecord } from "../run-state/record";
import type { PendingRequest, PendingResult, StreamEvent } from "../types";
import { resultOf, type LoopState, type RunContext } from "./context";
import type { CallOutcome } from "./execute-tools";

/** One call of a stored turn as the record keeps it: its result, its open request, or that it started. */
export function haltedCall(o: CallOutcome): HaltedCall {
  const { call, args } = o;
  const base = { id: call.id, name: call.name, args, raw: call.raw };
  if (o.request) return { ...base, request: o.request, ...(o.state === undefined ? {} : { state: o.state }) };
  if (o.started) return { ...base, started: true, ...(o.answer ? { answer: o.answer } : {}) };
  return { ...base, result: o.result };
}

/** The record of a run stopped in the middle of `assistant`'s turn: halted (suspended) or a checkpoint. */
export function haltRecord(ctx: RunContext, state: LoopState, assistant: unknown, calls: CallOutcome[]): RunRecord {
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
    calls: calls.map(haltedCall),
    turns: state.turns,
    usage: state.usage,
    toolCalls: state.toolCalls,
    text: state.text,
    ...(ctx.trace ? { trace: ctx.trace.context() } : {}),
  };
}

/** Every open request of a stored turn, in tool-call order (relay calls merged into one request share it). */
export const openRequests = (calls: readonly HaltedCall[]): PendingRequest[] => openGroups(calls).map((g) => g.request);

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
    call: { id: c.id, name: c.name, args: c.args, raw: c.raw },
    result: c.result ?? { output: c.request?.prompt ?? "", isError: true },
  }));
  const result = resultOf(state, "pending", { text: first.prompt, pending: first, requests, runId: state.runId });
  result.messages.push(record.assistant, ...ctx.wire.results(placeholders));
  return result;
}

/**
 * The end of a run that wrote its record as halted: it no longer owns the record, and its caller gets the
 * pending result (a stream first gets a `pending` event for each open request).
 */
export function* halted(
  ctx: RunContext,
  state: LoopState,
  record: Pick<RunRecord, "assistant" | "calls">,
): Generator<StreamEvent, PendingResult> {
  ctx.released?.();
  const result = pendingResult(state, record, ctx);
  if (ctx.stream) for (const request of result.requests!) yield { type: "pending", request, runId: state.runId };
  return result;
}

/**
 * How long a halted record is kept on adapters with TTLs: `pendingTtlSeconds`, but never less than until
 * the last open request's `expiresAt`. Undefined: kept until it is resumed.
 */
export function pendingTtl(ctx: RunContext, calls: readonly HaltedCall[]): number | undefined {
  const ttl = ctx.opts.pendingTtlSeconds;
  if (ttl === undefined || !ctx.storage.capabilities.ttl) return undefined;
  let until = 0;
  for (const r of openRequests(calls)) if (r.expiresAt) until = Math.max(until, Date.parse(r.expiresAt) || 0);
  return Math.max(ttl, Math.ceil((until - Date.now()) / 1000));
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
  return writeText(ctx, record.runId, value, opts ?? ttlOf(ctx, record));
}

/** The TTL a record is written with: `pendingTtlSeconds` (at least until its requests expire) until it is done. */
export const ttlOf = (ctx: RunContext, record: RunRecord): { ttlSeconds?: number } | undefined => {
  const ttlSeconds = record.status === "done" ? undefined : pendingTtl(ctx, record.calls);
  return ttlSeconds === undefined ? undefined : { ttlSeconds };
};

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
    throw new StorageError(
      op,
      key,
      new Error(
        "the stored run was changed by someone else during this resume (its lease passed and it was taken over)",
      ),
      value,
    );
  ctx.owned = value;
  return value;
}
