// What a page may see of a run's event: a `done` result without its transcript (it holds the system prompt and
// every message) and with no tool metadata beyond what the tool_call/tool_result events showed. The endpoint
// sends events so, and a run's exchange log keeps them so.
import type { RunResult, StreamEvent, ToolCallRecord } from "../types";

const visibleCall = ({ id, name, args, output, isError }: ToolCallRecord): ToolCallRecord => ({
  id,
  name,
  args,
  output,
  isError,
});

/** The result as a page may see it: no `messages`, tool calls as their events showed them. */
function pageSafe(result: RunResult): RunResult {
  const { messages: _transcript, ...rest } = result;
  return { ...rest, toolCalls: result.toolCalls.map(visibleCall) } as RunResult;
}

/** The event as a page may see it: a `done` result without its transcript (unless `includeMessages`). */
export function pageSafeEvent(event: StreamEvent, includeMessages = false): StreamEvent {
  return event.type === "done" && !includeMessages ? { type: "done", result: pageSafe(event.result) } : event;
}
