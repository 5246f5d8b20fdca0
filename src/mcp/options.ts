// What `connectMcp` is given, checked once: a bad option is a TypeError naming the option (never echoing a
// header value), and the secrets no error may carry — every header value and the URL's query.
import { isPlainObject, typeName } from "../_internal/json";
import { MAX_TIMER_MS } from "../_internal/signals";
import { ConfigError } from "../errors";
import { approvalProblem, type McpApproval } from "./approval";

export interface ConnectMcpOptions {
  /** The server's name: tools are named `sanitize(name) + "_" + sanitize(tool)`. */
  name: string;
  /** The streamable HTTP endpoint, e.g. `https://example.com/mcp`. Credentials go in `headers`, not in the URL. */
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`). Never stored, logged, put in an error or in a suspended run's state. */
  headers?: Record<string, string>;
  /** The fetch every request goes through (connecting, listing, calls, closing); default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * How long each request waits for its answer, in milliseconds (connecting, each page of listing, each call;
   * a progress notification restarts it; a session-era call includes the time its pushed elicitation waits).
   * Default 60 000, the MCP client's. At most 2 147 483 647, the longest a timer can wait.
   */
  timeoutMs?: number;
  /**
   * Calls that wait for an approval (`kind: "approval"`) before anything is sent to the server: `true` for
   * every tool, `{ deploy: true, transfer: (args) => … }` by the server's tool names, or
   * `(tool, args, ctx) => boolean` over the server's tool name and the arguments.
   */
  needsApproval?: McpApproval;
}

function shown(value: unknown): string {
  if (typeof value === "number") return String(value);
  return typeof value === "string" ? `the string "${value}"` : typeName(value);
}

function urlProblem(given: unknown): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(given as string | URL);
  } catch {
    return { problem: "url must be an absolute http(s) URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { problem: `url must be http(s), got ${url.protocol}` };
  if (url.username !== "" || url.password !== "")
    return { problem: "url must not carry credentials (user:password@) — send them in headers, e.g. authorization" };
  return { url };
}

function headersProblem(headers: unknown): string | undefined {
  if (headers === undefined) return undefined;
  if (!isPlainObject(headers))
    return `headers must be a plain object of header names to strings, got ${typeName(headers)} (for a Headers object pass Object.fromEntries(headers))`;
  for (const [name, value] of Object.entries(headers)) {
    const key = JSON.stringify(name);
    if (typeof value !== "string") return `headers[${key}] must be a string, got ${typeName(value)}`;
    try {
      new Headers([[name, value]]);
    } catch {
      return `headers[${key}] is not a valid HTTP header (its name a token, its value without line breaks or NUL)`;
    }
  }
  return undefined;
}

function problemOf(options: ConnectMcpOptions): { url: URL } | { problem: string } {
  const url = urlProblem(options.url);
  if ("problem" in url) return url;
  const headers = headersProblem(options.headers);
  if (headers) return { problem: headers };
  if (options.fetch !== undefined && typeof options.fetch !== "function")
    return { problem: `fetch must be a function, got ${typeName(options.fetch)}` };
  const t = options.timeoutMs;
  if (t !== undefined && !(typeof t === "number" && t > 0 && t <= MAX_TIMER_MS))
    return { problem: `timeoutMs must be a number of milliseconds > 0 and ≤ ${MAX_TIMER_MS}, got ${shown(t)}` };
  const approval = approvalProblem(options.needsApproval);
  return approval ? { problem: approval } : url;
}

/** The endpoint, or a TypeError that names the bad option. */
export function checkOptions(options: ConnectMcpOptions): URL {
  if (typeof options?.name !== "string" || options.name === "")
    throw new ConfigError(
      "name",
      `toolnexus/mcp: connectMcp: name must be a non-empty string, got ${shown(options?.name)}`,
    );
  const checked = problemOf(options);
  if ("problem" in checked)
    throw new ConfigError("options", `toolnexus/mcp: connectMcp "${options.name}": ${checked.problem}`);
  return checked.url;
}

/** What no error may carry: every header value (and the token after Bearer/Basic), the URL's query and each value in it. */
export function secretsOf(options: ConnectMcpOptions, url: URL): string[] {
  const out = url.search ? [url.search, ...[...url.searchParams.values()].filter(Boolean)] : [];
  for (const value of Object.values(options.headers ?? {})) {
    out.push(value);
    const token = /^(?:Bearer|Basic)\s+(.+)$/i.exec(value)?.[1];
    if (token) out.push(token);
  }
  return out;
}
