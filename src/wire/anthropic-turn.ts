// The turn an Anthropic assistant message's blocks make, one reading for a reply and an assembled stream.
import type { Usage } from "../types";
import { callFromRaw, callFromValue, newTurn } from "./calls";
import { record } from "./read";
import type { ToolCall, Turn } from "./types";

/**
 * The turn of an Anthropic assistant message's blocks — a reply's, or a stream's assembled, with the input
 * JSON each block streamed in `streamed` (by position): joined `text` and `thinking`, and the `tool_use` calls
 * in order. Server-side tool blocks carry their input the same way but run no tool here. Every input goes
 * back as the object it was read as: the API wants one, even when the JSON was bad (then `{}`).
 */
export function turnOf(content: unknown[], usage: Usage, stop: unknown, streamed: (string | undefined)[] = []): Turn {
  let text = "";
  let reasoning = "";
  const calls: ToolCall[] = [];
  content.forEach((value, at) => {
    const block = record(value);
    if (!block) return;
    const raw = streamed[at];
    if (block.type === "tool_use" || raw !== undefined || "input" in block) {
      const id = String(block.id ?? "");
      const name = String(block.name ?? "");
      const call = raw ? callFromRaw(id, name, raw) : callFromValue(id, name, block.input);
      block.input = call.args;
      if (block.type === "tool_use") calls.push(call);
    } else if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
  });
  return newTurn({ role: "assistant", content }, text, calls, usage, stop, reasoning);
}
