// What the model sees when a Request is declined, cancelled or expired: the tool's own words when it has
// `onDecline`, else the family's fixed `declined/expired: <prompt>`, followed by ` — <message>` when the
// answer says why. Inline (waitFor) and durable resumes both come here.
import { declineText } from "../answer";
import type { Answer, PendingRequest, ToolResult } from "../types";
import type { ToolCall } from "../wire/types";
import type { LoopState, RunContext } from "./context";

export function declined(
  ctx: RunContext,
  state: LoopState,
  request: PendingRequest,
  member: { call: ToolCall; args: Record<string, unknown> },
  answer: Answer,
): ToolResult | Promise<ToolResult> {
  const onDecline = ctx.toolkit?.get(member.call.name)?.onDecline;
  if (!onDecline) return { output: declineText(request.prompt, answer), isError: true };
  const { call } = member;
  const signal = ctx.signal ?? new AbortController().signal;
  const toolCtx = { signal, runId: state.runId, callId: call.id, idempotencyKey: `${state.runId}:${call.id}`, answer };
  return onDecline(answer, member.args, toolCtx);
}
