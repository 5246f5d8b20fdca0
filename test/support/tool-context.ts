// A ToolContext for calling a tool directly, as the loop would: a signal that never aborts and fixed ids.
import type { ToolContext } from "toolnexus";

export function toolCtx(over: Partial<ToolContext> = {}): ToolContext {
  const runId = over.runId ?? "run-test";
  const callId = over.callId ?? "call-test";
  return { signal: new AbortController().signal, runId, callId, idempotencyKey: `${runId}:${callId}`, ...over };
}
