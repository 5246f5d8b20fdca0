// What the `webfetch` builtin does (declared in builtins/index.ts): GET a URL with the toolkit's fetch
// and return its text. `text` and `markdown` both strip HTML to plain text (no real markdown conversion);
// `html` is the raw body. Loaded when the model first calls webfetch.
import type { FetchFn } from "../http-tool";
import { deadline } from "../../_internal/signals";
import type { ToolResult } from "../../types";
import type { ToolContext } from "../types";

const DEFAULT_TIMEOUT_S = 30;

export interface WebfetchOptions {
  /** The toolkit's fetch; default `globalThis.fetch`, looked up at call time. */
  fetch: FetchFn | undefined;
  /** The formats the declaration offers the model. */
  formats: readonly string[];
}

/** Runs with the raw arguments (it checks them itself); a throw becomes `webfetch: <message>`. */
export async function fetchPage(
  args: Record<string, unknown>,
  ctx: ToolContext,
  { fetch: fetchFn, formats }: WebfetchOptions,
): Promise<ToolResult> {
  const { url, format, seconds } = readArgs(args, formats);
  const limit = deadline(seconds * 1000, ctx.signal);
  try {
    const response = await (fetchFn ?? globalThis.fetch)(url, { method: "GET", signal: limit.signal });
    const body = await response.text();
    const status = response.status;
    if (!response.ok) return { output: `HTTP ${status}`, isError: true, metadata: { status } };
    const type = response.headers.get("content-type") ?? "";
    const markup = type === "" || /html|xml/i.test(type);
    return {
      output: format === "html" || !markup ? body : htmlToText(body),
      isError: false,
      metadata: { status, format },
    };
  } catch (error) {
    if (limit.timedOut()) throw new Error(`timed out after ${seconds}s`);
    throw error;
  } finally {
    limit.done();
  }
}

function readArgs(
  args: Record<string, unknown>,
  formats: readonly string[],
): { url: string; format: string; seconds: number } {
  const { url, format = "markdown", timeout = DEFAULT_TIMEOUT_S } = args;
  if (typeof url !== "string" || url === "") throw new Error("url is required");
  if (!/^https?:\/\//i.test(url)) throw new Error("url must start with http:// or https://");
  if (typeof format !== "string" || !formats.includes(format))
    throw new Error(`format must be one of ${formats.join(", ")}`);
  if (!(Number.isFinite(timeout) && (timeout as number) > 0))
    throw new Error("timeout must be a positive number of seconds");
  return { url, format, seconds: timeout as number };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Scripts, styles, comments and tags removed, common entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
      if (code[0] !== "#") return ENTITIES[code.toLowerCase()] ?? entity;
      const point = Number(`0${code.slice(1)}`); // "0x41" and "065" alike
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}
