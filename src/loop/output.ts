// A run's `output` schema at the end of the run: the model's final answer parsed as JSON and checked,
// or an OutputError carrying the raw text.
import { OutputError } from "../errors";
import type { ToolSchema } from "../tools/schema/input-schema";

/** A JSON document, also when a model wrapped it in a Markdown code fence. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch {
    return { ok: false };
  }
}

/** The validated output of the final answer `text` (what the schema returns, e.g. with defaults filled in). */
export async function finalOutput(schema: ToolSchema, text: string): Promise<unknown> {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new OutputError(text, text.trim() === "" ? "the answer is empty" : "the answer is not JSON");
  const checked = await schema.check(parsed.value as Record<string, unknown>);
  if (!checked.ok) throw new OutputError(text, checked.problems);
  return checked.value;
}
