// What the model sees when a Request is declined, cancelled or expired: the tool's own words when it has
// `onDecline`, else the family's fixed `declined/expired: <prompt>`, followed by ` — <message>` when the
// answer says why. Inline (waitFor) and durable resumes both come here. An `onDecline` is held to what a
// tool's `execute` is: `toolTimeoutMs` bounds it, and a throw or a malformed result is an error result.
import { declineText } from "../answer";
import type { Answer, PendingRequest, ToolResult } from "../types";
import type { ToolCall } from "../wire/types";
import type { LoopState, RunContext } from "./context";
import { bounded } from "./execute-tools";

export async function declined(
  ctx: RunContext,
  state: LoopState,
  request: PendingRequest,
  member: { call: ToolCall; args: Record<string, unknown> },
  answer: Answer,
): Promise<ToolResult> {
  const onDecline = ctx.toolkit?.get(member.call.name)?.onDecline;
  if (!onDecline) return { output: declineText(request.prompt, answer), isError: true };
  return bounded(ctx, state, member.call, "refusal", (toolCtx) => onDecline(answer, member.args, toolCtx), answer);
}
