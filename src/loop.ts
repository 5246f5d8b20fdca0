// The tool-calling loop: one async generator serves run, stream and resume. Concerns live in loop/.
import type { LoopState, RunContext } from "./loop/context";
import { resultOf } from "./loop/context";
import { callModel } from "./loop/call-model";
import { runTurn } from "./loop/execute-tools";
import { haltRecord, pendingResult, writeRecord, type TurnCall } from "./loop/halt";
import { appendTurn, mergeRelays, resolveInline, waiting } from "./loop/suspension";
import { openGroups } from "./run-state/record";
import type { RunResult, StreamEvent } from "./types";

/** Turns until the model stops calling tools, a suspension halts the run, or `maxTurns` is reached. */
export async function* drive(ctx: RunContext, state: LoopState): AsyncGenerator<StreamEvent, RunResult> {
  while (state.turns < ctx.maxTurns) {
    ctx.signal?.throwIfAborted();
    state.turns++;
    const turn = yield* callModel(ctx, state);
    state.text = turn.text;
    if (turn.calls.length === 0) {
      state.messages.push(turn.message);
      return resultOf(state, "done");
    }
    if (ctx.stream)
      for (const call of turn.calls) yield { type: "tool_call", id: call.id, name: call.name, args: call.args };
    const outcomes = await runTurn(ctx, state, turn.calls);
    ctx.signal?.throwIfAborted();
    mergeRelays(outcomes);
    if (ctx.opts.waitFor) {
      yield* resolveInline(ctx, state, outcomes);
    } else if (outcomes.some((o) => o.request)) {
      return yield* halt(ctx, state, turn.message, outcomes);
    } else {
      if (ctx.stream)
        for (const o of outcomes)
          yield {
            type: "tool_result",
            id: o.call.id,
            name: o.call.name,
            output: o.result.output,
            isError: o.result.isError,
          };
    }
    appendTurn(ctx, state, turn, outcomes);
  }
  return resultOf(state, "incomplete", { limit: "maxTurns" });
}

/**
 * Durable halt: the finished calls' results are reported, the run is written under its runId with every
 * suspended call of the turn, and the first open Request (in tool-call order) is surfaced.
 */
export async function* halt(
  ctx: RunContext,
  state: LoopState,
  assistant: unknown,
  calls: TurnCall[],
): AsyncGenerator<StreamEvent, RunResult> {
  for (const c of calls) {
    if (!c.request && ctx.stream)
      yield {
        type: "tool_result",
        id: c.call.id,
        name: c.call.name,
        output: c.result.output,
        isError: c.result.isError,
      };
  }
  const request = openGroups(calls, waiting)[0]!.request;
  await writeRecord(ctx, haltRecord(ctx, state, assistant, calls));
  if (ctx.stream) yield { type: "pending", request, runId: state.runId };
  return pendingResult(ctx, state, assistant, calls, request);
}
