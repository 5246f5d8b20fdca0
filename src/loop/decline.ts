// What the model sees when a Request is declined, cancelled or expired: the tool's own words when it has
// `onDecline`, else the family's fixed `declined/expired: <prompt>`, followed by ` — <message>` when the
// answer says why. Inline (waitFor) and durable resumes both come here. An `onDecline` is held to what a
// tool's `execute` is: `toolTimeoutMs` bounds it, and a throw or a malformed result is an error result.
import { declineText } from "../answer";
import { errorMessage } from "../errors";
import { anySignal } from "../_internal/signals";
import type { Answer, PendingRequest, ToolResult } from "../types";
import type { ToolCall } from "../wire/types";
import type { LoopState, RunContext } from "./context";

const isResult = (r: unknown): r is ToolResult =>
  typeof (r as ToolResult)?.output === "string" && typeof (r as ToolResult).isError === "boolean";

export async function declined(
  ctx: RunContext,
  state: LoopState,
  request: PendingRequest,
  member: { call: ToolCall; args: Record<string, unknown> },
  answer: Answer,
): Promise<ToolResult> {
  const onDecline = ctx.toolkit?.get(member.call.name)?.onDecline;
  if (!onDecline) return { output: declineText(request.prompt, answer), isError: true };
  const { name, id } = member.call;
  const limit = ctx.opts.toolTimeoutMs;
  const controller = limit ? new AbortController() : undefined;
  const signal = controller && ctx.signal ? anySignal([ctx.signal, controller.signal]) : controller?.signal;
  const toolCtx = {
    signal: signal ?? ctx.signal ?? new AbortController().signal,
    runId: state.runId,
    callId: id,
    idempotencyKey: `${state.runId}:${id}`,
    answer,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const running = onDecline(answer, member.args, toolCtx);
    const timedOut = new Promise<ToolResult>((resolve) => {
      if (!limit) return;
      timer = setTimeout(() => {
        const output = `tool ${name} timed out after ${limit}ms`;
        controller!.abort(new DOMException(output, "TimeoutError"));
        resolve({ output, isError: true });
      }, limit);
    });
    const result = await Promise.race([running, timedOut]);
    return isResult(result) ? result : { output: `tool ${name} returned an invalid refusal`, isError: true };
  } catch (error) {
    return { output: errorMessage(error), isError: true };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
