// A model's tool calls as the wires read them: a Turn, the calls kept among other entries of an assistant
// message (Anthropic's tool_use blocks, the Responses API's function_call items), and a call's arguments
// checked before any tool sees them.
import { typeName } from "../_internal/json";
import type { Usage } from "../types";
import { listOf, record, type Json } from "./read";
import type { ToolCall, Turn } from "./types";

/** A Turn; it has the provider's `finish` reason when that is a string, its `reasoning` when there is some. */
export function newTurn(
  message: unknown,
  text: string,
  calls: ToolCall[],
  usage: Usage,
  finish: unknown,
  reasoning?: unknown,
): Turn {
  const turn: Turn = { message, text, calls, usage };
  if (typeof reasoning === "string" && reasoning !== "") turn.reasoning = reasoning;
  if (typeof finish === "string") turn.finishReason = finish;
  return turn;
}

/** Where an assistant message keeps its calls among other entries: in `list`, of type `type`, the id in `id`. */
export interface CallEntries {
  list: string;
  type: string;
  id: string;
}

const entriesOf = (message: unknown, { list, type }: CallEntries): { entry: Json; at: number }[] =>
  listOf(message, list).flatMap((value, at) => {
    const entry = record(value);
    return entry?.type === type ? [{ entry, at }] : [];
  });

/** `Wire.callsOf` for calls kept among other entries. */
export function entryCalls(message: unknown, where: CallEntries): { id: string; name: string }[] {
  return entriesOf(message, where).map(({ entry }) => ({
    id: String(entry[where.id] ?? ""),
    name: String(entry.name ?? ""),
  }));
}

/** `Wire.withCallIds` for calls kept among other entries. */
export function withEntryIds(message: unknown, ids: readonly string[], where: CallEntries): unknown {
  const { list, id } = where;
  const entries = listOf(message, list).slice();
  entriesOf(message, where).forEach(({ entry, at }, i) => {
    entries[at] = { ...entry, [id]: ids[i] ?? entry[id] };
  });
  return { ...record(message), [list]: entries };
}

/** A call whose arguments the tool must not see: `args` is `{}` and the model is told why. */
const refused = (id: string, name: string, raw: string, reason: string): ToolCall => ({
  id,
  name,
  args: {},
  raw,
  argsError: `Invalid arguments for ${name}: not a JSON object: ${reason}`,
});

/**
 * A tool call from the arguments string the model sent: `JSON.parse(raw || "{}")`. Anything but a JSON
 * object leaves `args: {}` and sets `argsError`, so the loop answers the model instead of running the tool.
 */
export function callFromRaw(id: string, name: string, raw: string): ToolCall {
  let value: unknown;
  try {
    value = JSON.parse(raw || "{}");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refused(id, name, raw, reason.length > 120 ? `${reason.slice(0, 120)}…` : reason);
  }
  return checked(id, name, value, raw);
}

const MAX_ARGS_DEPTH = 64;

/**
 * Whether a JSON value holds anything more than `limit` levels down: depth first, stopping as soon as it passes
 * `limit` (so it never recurses deeper than that), with no array made per level.
 */
function deeperThan(value: unknown, limit: number): boolean {
  if (limit < 0) return true;
  if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) if (deeperThan(v, limit - 1)) return true;
  return false;
}

/**
 * Arguments must be a JSON object no deeper than 64 levels; anything else is refused before a tool sees it
 * (and a value too deep is never serialised: its `raw` is `{}`).
 */
function checked(id: string, name: string, value: unknown, raw?: string): ToolCall {
  if (deeperThan(value, MAX_ARGS_DEPTH)) return refused(id, name, "{}", `nested deeper than ${MAX_ARGS_DEPTH} levels`);
  const text = raw ?? JSON.stringify(value);
  const args = record(value);
  return args ? { id, name, args, raw: text } : refused(id, name, text, `got ${typeName(value)}`);
}

/** A tool call from arguments that arrived already parsed (Anthropic `input`, or OpenAI-compatible servers sending an object). */
export function callFromValue(id: string, name: string, value: unknown): ToolCall {
  return checked(id, name, value ?? {});
}
