// An error's message and a short preview of a bad value, for this subpath's own messages. (Its build imports
// the core's classes from the published entry, which does not export the core's text helpers.)
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A value as a message shows it: JSON, cut at 60 characters; a function or an unserializable value by its type. */
export function preview(value: unknown): string {
  let text: string | undefined;
  try {
    text = typeof value === "function" ? undefined : JSON.stringify(value);
  } catch {
    text = undefined;
  }
  text ??= typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
