// client.resume: continue a durably halted run with the answer to its open Request — exactly once.
import { RunConflictError, RunNotFoundError, RunStateError, StorageError, isToolnexusError } from "../errors";
import { drive } from "../loop";
import {
  answerDigest,
  keptOutcome,
  openGroups,
  restamp,
  saveRecord,
  type HaltedCall,
  type RunRecord,
} from "../run-state/record";
import { loadRecord } from "../run-state/check";
import type { Answer, RunResult, StreamEvent } from "../types";
import type { ToolCall } from "../wire/types";
import { runKey, zeroUsage, type LoopState, type RunContext } from "./context";
import { pendingResult, writeRecord, writeText, type TurnCall } from "./halt";
import { appendTurn, isRelay, matchAnswer, parsedAnswer, relayResults, resolveRequest } from "./suspension";

const asCall = (c: HaltedCall): ToolCall => ({ id: c.id, name: c.name, args: c.args, raw: c.raw });

async function read(ctx: RunContext, runId: string): Promise<{ raw: string; record: RunRecord }> {
  let raw: string | undefined;
  try {
    raw = await ctx.storage.get(runKey(runId));
  } catch (cause) {
    throw new StorageError("get", runKey(runId), cause);
  }
  if (raw === undefined) throw new RunNotFoundError(runId);
  const record = loadRecord(runId, raw);
  const damage = damaged(record);
  if (damage)
    throw new RunStateError(`toolnexus: stored run "${runId}" is corrupt: ${damage} — it was left as it is`, runId);
  return { raw, record };
}

/** What the shape cannot say: every call of the halted turn is finished or waiting. */
function damaged(record: RunRecord): string | undefined {
  if (record.status === "done") return undefined;
  const lost = record.calls.find((c) => !c.result && (!c.request || record.status === "ready"));
  return lost ? `call "${lost.id}" has neither a result nor an open request` : undefined;
}

/** Takes the record for this resume: compare-and-set where the adapter has it (atomic ones make this exactly-once). */
async function claim(ctx: RunContext, record: RunRecord, raw: string): Promise<void> {
  const key = runKey(record.runId);
  const value = restamp(raw, record.runId, "claimed") ?? saveRecord({ ...record, status: "claimed" });
  let won: boolean;
  try {
    if (ctx.storage.compareAndSet) {
      won = await ctx.storage.compareAndSet(key, raw, value);
    } else {
      // best effort on adapters without a conditional write (documented)
      won = (await ctx.storage.get(key)) === raw;
      if (won) await ctx.storage.set(key, value);
    }
  } catch (cause) {
    throw new StorageError("compareAndSet", key, cause);
  }
  if (!won)
    throw new RunConflictError(
      record.runId,
      `toolnexus: run "${record.runId}" was claimed by another resume first — nothing ran for this call`,
    );
  ctx.owned = value;
}

function stateOf(ctx: RunContext, record: RunRecord): LoopState {
  return {
    runId: record.runId,
    model: record.model,
    system: record.system,
    messages: record.messages.slice(),
    tools: ctx.wire.declare(ctx.toolkit),
    toolCalls: record.toolCalls.slice(),
    turns: record.turns,
    usage: { ...zeroUsage(), ...record.usage },
    text: record.text,
    ...(record.conversationId === undefined ? {} : { conversationId: record.conversationId }),
    startedAt: Date.now(),
  };
}

export interface Resumption {
  state: LoopState;
  /** The stored outcome when the same answer was already applied and the run finished. */
  finished?: RunResult;
  events?: AsyncGenerator<StreamEvent, RunResult>;
}

/**
 * Validates everything that can be validated before a tool runs (unknown run, corrupt record, wrong
 * answer id, unusable relay payload, a refused resume token, a racer) — each a typed error that leaves the stored run untouched —
 * then claims the record.
 */
export async function prepareResume(
  ctx: RunContext,
  runId: string,
  answer: Answer,
  guard?: (record: RunRecord) => void,
): Promise<Resumption> {
  const { raw, record } = await read(ctx, runId);
  if (record.style !== ctx.wire.style) {
    throw new RunStateError(
      `toolnexus: run "${runId}" was halted by a ${record.style}-style client; resume it with one`,
      runId,
    );
  }
  guard?.(record); // a resume token's binding to this run's open request (resume-token.ts)
  // validated first: a hostile answer (nested 10k deep, NaN, a class instance) is an InvalidAnswerError, never a stack overflow
  const parsed = parsedAnswer(answer);
  const digest = answerDigest(parsed ?? answer);
  const sameAnswer = record.answered?.requestId === answer?.id && record.answered.digest === digest;
  const state = stateOf(ctx, record);
  if (record.status === "done") {
    if (sameAnswer && record.result) return { state, finished: keptOutcome(record) };
    throw new RunConflictError(
      runId,
      `toolnexus: run "${runId}" has already finished — its suspension was answered once`,
    );
  }
  if (record.status === "claimed")
    throw new RunConflictError(runId, `toolnexus: run "${runId}" is being resumed by another caller`);
  if (record.status === "ready") {
    if (!sameAnswer)
      throw new RunConflictError(
        runId,
        `toolnexus: run "${runId}" was already answered; only the same answer can retry it`,
      );
    await claim(ctx, record, raw);
    return { state, events: proceed(ctx, state, record) };
  }
  const group = openGroups(record.calls)[0];
  if (!group) throw new RunStateError(`toolnexus: stored run "${runId}" is suspended but has no open request`, runId);
  const checked = matchAnswer(group.request, parsed);
  if (isRelay(group.request))
    await relayResults(
      checked,
      group.calls.map((c) => ({ call: asCall(c) })),
    );
  await claim(ctx, record, raw);
  return { state, events: answerAndProceed(ctx, state, record, raw, checked, digest) };
}

async function* answerAndProceed(
  ctx: RunContext,
  state: LoopState,
  record: RunRecord,
  raw: string,
  answer: Answer,
  digest: string,
): AsyncGenerator<StreamEvent, RunResult> {
  const group = openGroups(record.calls)[0]!;
  let results: Awaited<ReturnType<typeof resolveRequest>>;
  try {
    const members = group.calls.map((c) => ({ call: asCall(c), args: c.args }));
    results = await resolveRequest(ctx, state, group.request, members, answer);
  } catch (error) {
    await release(ctx, record.runId, raw); // nothing was applied: the run stays resumable as it was
    throw error;
  }
  const calls = record.calls.map((c) => {
    const i = group.calls.indexOf(c);
    return i < 0 ? c : { id: c.id, name: c.name, args: c.args, raw: c.raw, result: results[i]! };
  });
  if (ctx.stream)
    for (const c of calls)
      if (group.calls.some((g) => g.id === c.id))
        yield { type: "tool_result", id: c.id, name: c.name, output: c.result!.output, isError: c.result!.isError };
  const next: RunRecord = { ...record, calls, answered: { requestId: answer.id, digest } };
  const open = openGroups(calls)[0];
  if (open) {
    // another call of the same turn still waits: surface it under the same runId
    await writeRecord(ctx, { ...next, status: "suspended" });
    if (ctx.stream) yield { type: "pending", request: open.request, runId: record.runId };
    const turnCalls: TurnCall[] = calls.map((c) => ({
      call: asCall(c),
      args: c.args,
      result: c.result ?? { output: "", isError: true },
      ...(c.result ? {} : { request: c.request! }),
    }));
    return pendingResult(ctx, state, record.assistant, turnCalls, open.request);
  }
  return yield* proceed(ctx, state, next, record.answered || record.result ? undefined : { record, raw });
}

/**
 * Every call of the halted turn has its result: append the balanced turn and let the model continue.
 * The record stays claimed while the model is called (a second resume is refused); only when the call
 * fails is it put back as "ready", so the same answer can retry without running the tools again.
 */
async function* proceed(
  ctx: RunContext,
  state: LoopState,
  record: RunRecord,
  base?: Loaded,
): AsyncGenerator<StreamEvent, RunResult> {
  appendTurn(
    ctx,
    state,
    { message: record.assistant },
    record.calls.map((c) => ({ call: asCall(c), args: c.args, result: c.result! })),
  );
  let result: RunResult;
  try {
    result = yield* drive(ctx, state);
  } catch (error) {
    // the answer was applied and its tools ran: keep that, so the same answer can retry the model call
    if (!isToolnexusError(error) || error.code !== "storage")
      await release(ctx, record.runId, saveRecord({ ...record, status: "ready" }));
    throw error;
  }
  if (result.status !== "pending") await complete(ctx, record, result, base);
  return result;
}

/** A record as loaded, with its stored text. */
interface Loaded {
  record: RunRecord;
  raw: string;
}

/**
 * Keeps the outcome (for a repeated identical answer) until `completedTtlSeconds`. `base` is the record
 * as loaded, when its text can simply take the answer and the outcome appended: the transcript stored
 * there is not serialized again, and the outcome lists only the messages after it (keptOutcome). The
 * loaded text is edited rather than the claimed one: same body, and it is one flat string already.
 */
async function complete(ctx: RunContext, record: RunRecord, result: RunResult, base?: Loaded): Promise<void> {
  const ttl = ctx.opts.completedTtlSeconds ?? 86_400;
  if (!ctx.storage.capabilities.ttl || ttl <= 0) {
    await ctx.storage.delete(runKey(record.runId)).catch(() => {}); // the result is returned either way
    return;
  }
  const opts = { ttlSeconds: ttl };
  const before = base?.record.messages ?? [];
  let appended: string | undefined;
  try {
    if (base && ctx.owned && before.every((m, i) => result.messages[i] === m)) {
      appended = restamp(base.raw, record.runId, "done", {
        answered: record.answered,
        result: { ...result, messages: result.messages.slice(before.length) },
      });
    }
  } catch {
    // not JSON: writeRecord below reports it as a StorageError
  }
  if (appended) await writeText(ctx, record.runId, appended, opts);
  else
    await writeRecord(
      ctx,
      { ...record, status: "done", messages: [], assistant: null, calls: [], toolCalls: [], result },
      opts,
    );
}

/** Puts a claimed record back (best effort: a failure here must not hide the original error). */
async function release(ctx: RunContext, runId: string, value: string): Promise<void> {
  const key = runKey(runId);
  try {
    if (ctx.owned !== undefined && ctx.storage.compareAndSet) await ctx.storage.compareAndSet(key, ctx.owned, value);
    else await ctx.storage.set(key, value);
    ctx.owned = value;
  } catch {
    // the claimed record stays; a later resume reports RunConflictError instead of running twice
  }
}
