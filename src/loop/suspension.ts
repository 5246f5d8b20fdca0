// A call that suspends: its request matched with an answer (parsed, its id echoed), re-executed with it, or
// resolved inline through waitFor; relay calls of one turn merged into one request.
import { isExpired, pendingOf } from "../pending";
import { parseAnswer } from "../answer-parse";
import { AnswerMismatchError } from "../errors";
import { openGroups } from "../run-state/record";
import type { Answer, PendingRequest, StreamEvent, ToolResult } from "../types";
import type { ToolCall, Turn } from "../wire/types";
import { toolResult, type LoopState, type RunContext } from "./context";
import { runTool, type CallOutcome } from "./execute-tools";
import { readRelayAnswer } from "../tools/relay-answer";
import { isApprovalGate } from "../tools/approval";
import { declined } from "./decline";
import { nowOf } from "./deadline";

export const isRelay = (request: PendingRequest): boolean => request.kind === "tool_call";

/**
 * Whether answering `request` with `answer` runs the call's tool again: a relay call never does (the host's
 * outputs are its results), a refusal only for a tool that carries a continuation (it hears the refusal).
 */
export const reruns = (request: PendingRequest, answer: Answer, toolState: unknown): boolean =>
  !isRelay(request) && (answer.ok || toolState !== undefined);

/**
 * Merges the relay suspensions of one turn into the first of them (`data.calls` in tool-call order,
 * each stamped with its provider call id), so the host answers them together with one `relayAnswer`.
 */
export function mergeRelays(outcomes: CallOutcome[]): void {
  let first: PendingRequest | undefined;
  for (const o of outcomes) {
    if (!o.request || !isRelay(o.request)) continue;
    const calls = Array.isArray(o.request.data?.calls) ? (o.request.data.calls as Record<string, unknown>[]) : [];
    const stamped = calls.map((c) => ({ ...c, id: c.id || o.call.id }));
    if (first) (first.data!.calls as unknown[]).push(...stamped);
    else first = { ...o.request, data: { ...o.request.data, calls: stamped } } as PendingRequest;
    o.request = first;
  }
}

/** An answer validated with parseAnswer; none at all (undefined/null) stays undefined. */
export const parsedAnswer = (answer: unknown): Answer | undefined =>
  answer === undefined || answer === null ? undefined : parseAnswer(answer);

/** An already parsed answer must echo the Request's id; no answer counts as cancelled. */
export function matchAnswer(request: PendingRequest, answer: Answer | undefined, now = Date.now()): Answer {
  if (!answer) return { id: request.id, ok: false, reason: "cancelled" };
  if (answer.id !== request.id) throw new AnswerMismatchError(request, answer);
  // past the Request's expiresAt an ok answer counts as expired — decided here, before anything (the claim's
  // started marks, the toolkit check, a re-run after a takeover) looks at it
  if (answer.ok && isExpired(request, now)) return { id: answer.id, ok: false, reason: "expired" };
  return answer;
}

/**
 * Applies an answer (matched: an expired one is declined) to one open Request:
 * declined ⇒ `declined/expired: <prompt>`; relay ⇒ the host's results; otherwise the same tool re-runs
 * once with `ctx.answer`, and a second suspension becomes `unresolved: <prompt>`.
 */
export async function resolveRequest(
  ctx: RunContext,
  state: LoopState,
  request: PendingRequest,
  members: { call: ToolCall; args: Record<string, unknown>; state?: unknown }[],
  answer: Answer,
): Promise<ToolResult[]> {
  // a relay call's result is the host's (a declined answer: `relay declined for <name>: <reason>` for each call)
  if (isRelay(request))
    return readRelayAnswer(
      answer,
      members.map((m) => m.call),
    );
  return Promise.all(
    members.map(async (m) => {
      // a tool that carries a continuation (`pending(request, { state })`, e.g. an MCP elicitation) hears the
      // refusal too, so it can tell its server; any other tool is simply told no
      if (!reruns(request, answer, m.state)) return declined(ctx, state, request, m, answer);
      const again = await runTool(ctx, state, m.call, m.args, answer, m.state);
      if (!again.request) return again.result;
      // an approved call may then suspend for its own reason (a relay call, a question), and a tool with a
      // continuation may ask its next round: that Request is next; anything else asking again is unresolved
      const next = isApprovalGate(request) || m.state !== undefined || again.state !== undefined;
      return next ? again.result : { output: `unresolved: ${request.prompt}`, isError: true };
    }),
  );
}

/** A re-run call's outcome: its result and, when it suspended again, its next request and the tool's state. */
export const settled = (result: ToolResult): Omit<CallOutcome, "call" | "args"> => ({
  result,
  request: pendingOf(result),
  state: result.metadata?.pendingState,
});

/** Inline resolution through `waitFor`, call by call in tool-call order, with `pending` before each wait. */
export async function* resolveInline(
  ctx: RunContext,
  state: LoopState,
  outcomes: CallOutcome[],
): AsyncGenerator<StreamEvent> {
  const waitFor = ctx.opts.waitFor!;
  for (const outcome of outcomes) {
    // a call waits while it carries its Request (its result is the suspension itself); resolving a group
    // settles all of its calls at once
    while (outcome.request) {
      const group = openGroups(outcomes, (o) => o.request !== undefined).find((g) => g.calls.includes(outcome))!;
      if (ctx.stream) yield { type: "pending", request: group.request };
      const answer = matchAnswer(group.request, parsedAnswer(await waitFor(group.request)), nowOf(ctx));
      const results = await resolveRequest(ctx, state, group.request, group.calls, answer);
      // a call that suspends again waits once more, with its new state
      group.calls.forEach((m, i) => Object.assign(m, settled(results[i]!)));
    }
    if (ctx.stream) yield toolResult(outcome);
  }
}

/** Appends one finished turn — the assistant message and every result, in call order — and its records. */
export function appendTurn(
  ctx: RunContext,
  state: LoopState,
  turn: Pick<Turn, "message">,
  outcomes: { call: ToolCall; args: Record<string, unknown>; result: ToolResult }[],
): void {
  state.messages.push(turn.message, ...ctx.wire.results(outcomes));
  for (const { call, args, result } of outcomes) {
    state.toolCalls.push({
      id: call.id,
      name: call.name,
      args,
      output: result.output,
      isError: result.isError,
      ...(result.metadata ? { metadata: result.metadata } : {}),
    });
  }
}
