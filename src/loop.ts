// The tool-calling loop: one async generator serves run, stream and resume. Concerns live in loop/.
import { callModel } from "./loop/call-model";
import type { LoopState, RunContext } from "./loop/context";
import { resultOf, toolResult } from "./loop/context";
import { runTurn, type CallOutcome } from "./loop/execute-tools";
import { endPending, turnRecord, storedCall } from "./loop/halt";
import type { RecordOwner } from "./run-state/store";
import { appendTurn, mergeRelays, resolveInline } from "./loop/suspension";
import type { StoredCall } from "./run-state/record";
import type { RunResult, StreamEvent } from "./types";
import type { ToolCall, Turn } from "./wire/types";
import { finalOutput } from "./loop/output";

/**
 * Turns until the model stops calling tools, a suspension halts the run, or `maxTurns` is reached. A resumed
 * run is handed the `owner` of its claimed record, which checkpoints every turn.
 */
export async function* drive(
  ctx: RunContext,
  state: LoopState,
  owner?: RecordOwner,
): AsyncGenerator<StreamEvent, RunResult> {
  while (state.turns < ctx.maxTurns) {
    ctx.signal?.throwIfAborted();
    state.turns++;
    const turn = uniqueIds(ctx, state, yield* callModel(ctx, state));
    state.text = turn.text;
    if (turn.calls.length === 0) {
      state.messages.push(turn.message);
      return resultOf(state, "done", ctx.output ? { output: await finalOutput(ctx.output, turn.text) } : {});
    }
    if (ctx.stream)
      for (const call of turn.calls) yield { type: "tool_call", id: call.id, name: call.name, args: call.args };
    // a resumed run marks the calls as started before any runs: after a crash they are never run twice
    await owner?.checkpoint(turnRecord(ctx, state, turn.message, turn.calls.map(started)));
    const outcomes = await runTurn(ctx, state, turn.calls);
    ctx.signal?.throwIfAborted();
    mergeRelays(outcomes);
    if (ctx.opts.waitFor) {
      yield* resolveInline(ctx, state, outcomes);
    } else if (outcomes.some((o) => o.request)) {
      return yield* halt(ctx, state, owner, turn.message, outcomes);
    }
    await owner?.checkpoint(turnRecord(ctx, state, turn.message, outcomes.map(storedCall)));
    if (ctx.stream && !ctx.opts.waitFor) for (const o of outcomes) yield toolResult(o);
    appendTurn(ctx, state, turn, outcomes);
  }
  return resultOf(state, "incomplete", { limit: "maxTurns" });
}

const started = ({ id, name, args, raw }: ToolCall): StoredCall => ({ id, name, args, raw, started: true });

/**
 * Every call of a run gets an id of its own, so `idempotencyKey` (`runId:callId`) never repeats within it:
 * a call that came without an id, or with one an earlier call of the run already has, is given a fresh one
 * (in the transcript too).
 */
function uniqueIds(ctx: RunContext, state: LoopState, turn: Turn): Turn {
  const seen = new Set(state.toolCalls.map((c) => c.id));
  let renamed = false;
  const ids = turn.calls.map((call, i) => {
    let id = call.id;
    for (let n = 0; !id || seen.has(id); n++) id = `${call.id || "call"}_t${state.turns}_${i}${n ? `_${n}` : ""}`;
    seen.add(id);
    if (id !== call.id) renamed = true;
    return id;
  });
  if (!renamed) return turn;
  return {
    ...turn,
    message: ctx.wire.withCallIds(turn.message, ids),
    calls: turn.calls.map((call, i) => ({ ...call, id: ids[i]! })),
  };
}

/**
 * Durable halt: the finished calls' results are reported, the run is written under its runId with every
 * suspended call of the turn, and every open request (in tool-call order) is surfaced.
 */
export async function* halt(
  ctx: RunContext,
  state: LoopState,
  owner: RecordOwner | undefined,
  assistant: unknown,
  calls: CallOutcome[],
): AsyncGenerator<StreamEvent, RunResult> {
  if (ctx.stream) for (const c of calls) if (!c.request) yield toolResult(c);
  const record = turnRecord(ctx, state, assistant, calls.map(storedCall));
  await (owner ? owner.halt(record) : ctx.records.halt(record));
  return yield* endPending(ctx, state, record);
}
