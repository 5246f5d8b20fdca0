// Content parts (text, images, files) in each wire's own shape: a prompt's parts, the neutral parts of a
// history user message, and the images and files a tool returned beside its output.
import { isPlainObject, typeName } from "../_internal/json";
import { ConfigError } from "../errors";
import type { ContentPart } from "../types";

type Json = Record<string, unknown>;

const cut = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/**
 * A part as given, checked: text has a string `text`; an image or a file has a `mediaType` and exactly one
 * of `data` (base64) or `url`. Anything else is a ConfigError naming where it was (`at`).
 */
export function checkPart(value: unknown, at: string): ContentPart {
  const part = isPlainObject(value) ? value : undefined;
  const fail = (what: string): never => {
    throw new ConfigError(
      at,
      `toolnexus: ${at} ${what} — a content part is { type: "text", text } or { type: "image" | "file", mediaType, data | url }`,
    );
  };
  if (!part) return fail(`is ${typeName(value)}, not a content part`);
  if (part.type === "text") return typeof part.text === "string" ? (part as ContentPart) : fail("has no string text");
  if (part.type !== "image" && part.type !== "file") return fail(`has type ${cut(JSON.stringify(part.type) ?? "")}`);
  if (typeof part.mediaType !== "string" || !part.mediaType) return fail("has no mediaType");
  const data = typeof part.data === "string";
  const url = typeof part.url === "string";
  if (data === url) return fail(data ? "has both data and url" : "has neither data nor url");
  return part as ContentPart;
}

/** A prompt as a user message's content: a string as it is, content parts checked and converted. */
export function promptContent(prompt: unknown, convert: (part: ContentPart, at: string) => Json): unknown {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt))
    throw new ConfigError(
      "prompt",
      `toolnexus: a prompt is a string or an array of content parts, got ${typeName(prompt)}`,
    );
  return prompt.map((p, i) => convert(checkPart(p, `prompt[${i}]`), `prompt[${i}]`));
}

/**
 * The parts a tool returned beside its output. A tool's failures are data the model sees, so a part that is
 * not a content part becomes a text part saying so instead of ending the run.
 */
export function toolParts(content: unknown): ContentPart[] {
  return Array.isArray(content) ? content.map((p, i) => orNote(() => checkPart(p, `content[${i}]`))) : [];
}

/** What `convert` makes of a tool's part, or a text part saying why it could not be sent. */
export function orNote<T>(convert: () => T): T | { type: "text"; text: string } {
  try {
    return convert();
  } catch (error) {
    return { type: "text", text: `[unsupported content part: ${(error as Error).message}]` };
  }
}

/** A part's bytes as a `data:` URL. */
export const dataUrl = (p: { data?: string; mediaType: string }): string =>
  `data:${p.mediaType};base64,${p.data ?? ""}`;

/** One part as OpenAI chat content: `text`, `image_url` (a data URL for inline data), `file` (inline data only). */
export function openaiPart(part: ContentPart, at = "content"): Json {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image") return { type: "image_url", image_url: { url: part.url ?? dataUrl(part) } };
  if (part.data === undefined)
    throw new ConfigError(
      at,
      `toolnexus: ${at}: OpenAI chat takes a file as inline data only — send its bytes as data`,
    );
  return { type: "file", file: { filename: part.filename ?? "file", file_data: dataUrl(part) } };
}

/** One part as an Anthropic block: `text`, `image`, or `document` (PDFs and text files), base64 or by URL. */
export function anthropicPart(part: ContentPart): Json {
  if (part.type === "text") return { type: "text", text: part.text };
  const source =
    part.url !== undefined
      ? { type: "url", url: part.url }
      : { type: "base64", media_type: part.mediaType, data: part.data };
  if (part.type === "image") return { type: "image", source };
  return { type: "document", source, ...(part.filename ? { title: part.filename } : {}) };
}

/** A neutral part has `mediaType` (the providers' own shapes carry `source`, `image_url` or `file`). */
export const isNeutral = (part: unknown): boolean =>
  isPlainObject(part) && (part.type === "image" || part.type === "file") && "mediaType" in part;

/**
 * History as the wire sends it: a user message whose `content` holds neutral parts has them converted
 * (checked first); every other message, and every part already in the provider's shape, is kept as it is.
 */
export function historyParts(
  history: readonly unknown[],
  convert: (part: ContentPart, at: string) => Json,
  label = "history",
): unknown[] {
  return history.map((message, m) => {
    if (!isPlainObject(message) || message.role !== "user" || !Array.isArray(message.content)) return message;
    if (!message.content.some(isNeutral)) return message;
    const content = message.content.map((part, i) => {
      const at = `${label}[${m}].content[${i}]`;
      return isNeutral(part) ? convert(checkPart(part, at), at) : part;
    });
    return { ...message, content };
  });
}

/** `data:<mediaType>;base64,<data>` read back into its parts; undefined for any other URL. */
function fromDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1]!, data: m[2]! } : undefined;
}

/**
 * An OpenAI chat user part as an Anthropic block: `text`; `image_url` as an image (base64 from a data URL,
 * else by URL); an inline `file` as a document; a neutral part converted; anything else (a block already in
 * Anthropic's shape) as it is.
 */
export function openaiToAnthropicPart(value: unknown, at: string): unknown {
  const part = isPlainObject(value) ? value : undefined;
  if (!part) return value;
  if (isNeutral(part)) return anthropicPart(checkPart(part, at));
  if (part.type === "text" && typeof part.text === "string") return { type: "text", text: part.text };
  const image = part.type === "image_url" ? part.image_url : undefined;
  const url = isPlainObject(image) ? image.url : image;
  if (typeof url === "string") {
    const inline = fromDataUrl(url);
    return anthropicPart(inline ? { type: "image", ...inline } : { type: "image", url, mediaType: "" });
  }
  const file = part.type === "file" && isPlainObject(part.file) ? part.file : undefined;
  const inline = typeof file?.file_data === "string" ? fromDataUrl(file.file_data) : undefined;
  if (!inline) return value;
  const filename = file?.filename;
  return anthropicPart({ type: "file", ...inline, ...(typeof filename === "string" ? { filename } : {}) });
}
