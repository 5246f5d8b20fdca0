// The `webfetch` builtin (contract §1.6): GET a URL with the toolkit's fetch and return its text.
// `text` and `markdown` both strip HTML to plain text (no real markdown conversion); `html` is the raw body.
import type { FetchFn } from "../http-tool";
import { deadline } from "../signals";
import type { ToolSchema } from "../schema";
import { builtinFailure, makeTool } from "../tool";
import type { JSONSchema, Tool } from "../types";

const FORMATS = ["text", "markdown", "html"];
const DEFAULT_TIMEOUT_S = 30;

const webfetchSchema = (): JSONSchema => ({
  type: "object",
  properties: {
    url: { type: "string", description: "The http(s) URL to fetch" },
    format: { type: "string", enum: [...FORMATS], description: "How to return the page: text, markdown (default) or html" },
    timeout: { type: "number", description: "Seconds to wait for the page (default 30)" },
  },
  required: ["url"],
  additionalProperties: false,
});

// webfetch checks its own arguments so its messages read "webfetch: url is required" (contract §1.6).
const selfChecked = (): ToolSchema => ({ json: webfetchSchema(), check: (args) => ({ ok: true, value: args }) });

/* @__NO_SIDE_EFFECTS__ */
export function webfetchTool(fetchFn?: FetchFn): Tool {
  return makeTool({
    name: "webfetch",
    description: "Fetch a web page or file over HTTP(S) and return its content as text, markdown or raw HTML.",
    source: "builtin",
    schema: selfChecked(),
    failure: builtinFailure("webfetch"),
    async run(args, ctx) {
      const { url, format, seconds } = readArgs(args);
      const limit = deadline(seconds * 1000, ctx?.signal);
      try {
        const response = await (fetchFn ?? globalThis.fetch)(url, { method: "GET", signal: limit.signal });
        const body = await response.text();
        const status = response.status;
        if (!response.ok) return { output: `HTTP ${status}`, isError: true, metadata: { status } };
        const type = response.headers.get("content-type") ?? "";
        const markup = type === "" || /html|xml/i.test(type);
        return { output: format === "html" || !markup ? body : htmlToText(body), isError: false, metadata: { status, format } };
      } catch (error) {
        if (limit.timedOut()) throw new Error(`timed out after ${seconds}s`);
        throw error;
      } finally {
        limit.done();
      }
    },
  });
}

function readArgs(args: Record<string, unknown>): { url: string; format: string; seconds: number } {
  const { url, format = "markdown", timeout = DEFAULT_TIMEOUT_S } = args;
  if (typeof url !== "string" || url === "") throw new Error("url is required");
  if (!/^https?:\/\//i.test(url)) throw new Error("url must start with http:// or https://");
  if (typeof format !== "string" || !FORMATS.includes(format)) throw new Error(`format must be one of ${FORMATS.join(", ")}`);
  if (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout)) throw new Error("timeout must be a positive number of seconds");
  return { url, format, seconds: timeout };
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
