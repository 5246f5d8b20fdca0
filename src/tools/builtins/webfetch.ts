// What the `webfetch` builtin does (declared, and its arguments read, in builtins/index.ts): GET a URL
// with the toolkit's fetch and return its text. `text` and `markdown` both strip HTML to plain text (no
// real markdown conversion); `html` is the raw body. Loaded when the model first calls webfetch.
import type { FetchFn } from "../http-tool";
import { deadline } from "../../_internal/signals";
import type { ToolContext, ToolResult } from "../../types";

export interface PageRequest {
  url: string;
  format: string;
  seconds: number;
}

/** Runs with arguments already read; a throw becomes `webfetch: <message>`. */
export async function fetchPage(
  { url, format, seconds }: PageRequest,
  ctx: ToolContext,
  fetchFn?: FetchFn,
): Promise<ToolResult> {
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

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Scripts, styles, comments and tags removed, common entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
      if (code[0] !== "#") return ENTITIES[code.toLowerCase()] ?? entity;
      const point = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}
