// `httpTool`: one HTTP endpoint as a tool. The arguments fill `{placeholders}` in the URL,
// then the query string (GET/HEAD, or names listed in `query`), then the body. Header values — secrets,
// usually — never appear in an output or an error.
import { toolSchema, type StandardSchemaV1 } from "./schema/input-schema";
import { maskSecrets } from "../_internal/redact";
import { isPlainObject, typeName } from "../_internal/json";
import { deadline, MAX_TIMER_MS } from "../_internal/signals";
import { badOption, makeTool, requireToolName, thrownMessage } from "./tool";
import type { JSONSchema, ToolResult } from "../types";
import type { Tool, ToolContext } from "./types";

/** A `fetch` as the SDK calls it. */
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpToolOptions {
  name: string;
  description: string;
  method: string;
  /** May hold `{arg}` placeholders, filled from the arguments (URL-encoded) and consumed. */
  url: string;
  /** `${VAR}` in a value is expanded from `env` (missing ⇒ `""`). Values never reach outputs or errors. */
  headers?: Record<string, string>;
  /** Argument names sent in the query string even when the method is not GET. */
  query?: string[];
  /** How the remaining arguments of a non-GET/HEAD call are sent. Default `"json"`. */
  body?: "json" | "form" | "raw";
  /** Default: every URL placeholder as a required string. */
  inputSchema?: JSONSchema | StandardSchemaV1;
  /** Default 30000. Combined with `ctx.signal`. */
  timeoutMs?: number;
  /** Default `"text"`. */
  resultMode?: "text" | "json" | "status+text";
  /** Variables for `${VAR}` header expansion. There is no implicit lookup of the host environment. */
  env?: Record<string, string>;
  /** Default: `globalThis.fetch`, looked up at call time. */
  fetch?: FetchFn;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const BODY_MODES = ["json", "form", "raw"];
const RESULT_MODES = ["text", "json", "status+text"];
const PLACEHOLDER = /\{(\w+)\}/g;

/** A tool that calls one HTTP endpoint (`source: "http"`). */
/* @__NO_SIDE_EFFECTS__ */
export function httpTool(options: HttpToolOptions): Tool {
  const name = requireToolName("httpTool", options);
  const method = checkHttpOptions(name, options);
  const placeholders = [...new Set(Array.from(options.url.matchAll(PLACEHOLDER), (m) => m[1]!))];
  const fallback = (): JSONSchema => ({
    type: "object",
    properties: Object.fromEntries(
      placeholders.map((p) => [p, { type: "string", description: `The {${p}} part of the URL` }]),
    ),
    ...(placeholders.length ? { required: placeholders } : {}),
  });
  return makeTool({
    name,
    description: options.description,
    source: "http",
    schema: toolSchema(options.inputSchema, name, fallback),
    run: (args, ctx) => callEndpoint(options, method, args, ctx),
  });
}

function checkHttpOptions(name: string, o: HttpToolOptions): string {
  // header and env values are secrets: only their kind is shown
  const bad = (field: keyof HttpToolOptions, want: string) =>
    badOption(
      `httpTool "${name}"`,
      field,
      want,
      o[field],
      field === "headers" || field === "env" ? typeName(o[field]) : undefined,
    );
  if (typeof o.method !== "string" || !/^[A-Za-z]+$/.test(o.method))
    throw bad("method", 'an HTTP method such as "GET"');
  if (typeof o.url !== "string" || o.url === "") throw bad("url", "a non-empty string");
  const optional: [keyof HttpToolOptions, (value: unknown) => boolean, string][] = [
    ["body", (v) => BODY_MODES.includes(v as string), `one of ${BODY_MODES.join(", ")}`],
    ["resultMode", (v) => RESULT_MODES.includes(v as string), `one of ${RESULT_MODES.join(", ")}`],
    [
      "timeoutMs",
      (v) => typeof v === "number" && v > 0 && v <= MAX_TIMER_MS,
      `a number of ms > 0 and ≤ ${MAX_TIMER_MS}`,
    ],
    ["headers", isStringRecord, "an object of string values"],
    ["env", isStringRecord, "an object of string values"],
    ["query", (v) => Array.isArray(v) && v.every((q) => typeof q === "string"), "an array of argument names"],
    ["fetch", (v) => typeof v === "function", "a function"],
  ];
  for (const [field, test, want] of optional) if (o[field] !== undefined && !test(o[field])) throw bad(field, want);
  return o.method.toUpperCase();
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  isPlainObject(v) && Object.values(v).every((x) => typeof x === "string");

async function callEndpoint(
  o: HttpToolOptions,
  method: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { headers, secrets } = expandHeaders(o.headers ?? {}, o.env ?? {});
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limit = deadline(timeoutMs, ctx.signal);
  try {
    const { url, body } = buildRequest(o, method, args, headers);
    const fetchFn: FetchFn = o.fetch ?? globalThis.fetch;
    const response = await fetchFn(url, { method, headers, body, signal: limit.signal });
    const text = await response.text();
    const { ok, status } = response;
    const mode = o.resultMode;
    const output = ok ? outputOf(mode, status, text) : `HTTP ${status}: ${text}`;
    return { output: maskSecrets(output, secrets), isError: !ok, metadata: { status } };
  } catch (error) {
    const message = limit.timedOut() ? `${o.name}: request timed out after ${timeoutMs}ms` : thrownMessage(error);
    return { output: maskSecrets(message, secrets), isError: true };
  } finally {
    limit.done();
  }
}

/** An ok response's body as the tool's output, in the tool's `resultMode`. */
function outputOf(mode: HttpToolOptions["resultMode"], status: number, text: string): string {
  if (mode === "status+text") return `${status}\n${text}`;
  return mode === "json" ? asJson(text) : text;
}

/** The body re-serialised when it is JSON, else JSON-quoted. */
function asJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify(text);
  }
}

function buildRequest(
  o: HttpToolOptions,
  method: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): { url: string; body?: string } {
  const rest: Record<string, unknown> = { ...args };
  let url = o.url.replace(PLACEHOLDER, (_, key: string) => {
    const value = rest[key];
    delete rest[key];
    return encodeURIComponent(toParam(value ?? ""));
  });
  const bodiless = method === "GET" || method === "HEAD";
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(rest)) {
    if (!bodiless && !o.query?.includes(key)) continue;
    query[key] = rest[key];
    delete rest[key];
  }
  const search = formEncoded(query);
  if (search) url += (url.includes("?") ? "&" : "?") + search;
  if (bodiless || Object.keys(rest).length === 0) return { url };
  const mode = o.body ?? "json";
  if (mode === "raw") return { url, body: toParam(rest.body ?? "") };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
    headers["Content-Type"] = mode === "form" ? "application/x-www-form-urlencoded" : "application/json";
  return { url, body: mode === "form" ? formEncoded(rest) : JSON.stringify(rest) };
}

/** `a=1&b=x` of the defined values. */
function formEncoded(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.append(key, toParam(value));
  return params.toString();
}

/** Strings as they are; anything else as JSON (never `[object Object]`). */
function toParam(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

// Headers that describe the exchange rather than identify the caller; their values are not scrubbed.
const PLAIN_HEADERS = ["accept", "content-type"];

/** `${VAR}` expanded from `env`; `secrets` = what must never be echoed (header values, expanded variables). */
function expandHeaders(
  config: Record<string, string>,
  env: Record<string, string>,
): { headers: Record<string, string>; secrets: string[] } {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [name, template] of Object.entries(config)) {
    const value = template.replace(/\$\{([A-Z0-9_]+)\}/gi, (_, key: string) => {
      const found = Object.hasOwn(env, key) ? env[key]! : "";
      secrets.push(found);
      return found;
    });
    headers[name] = value;
    // the whole value, and the credential of a "<scheme> <credential>" value on its own
    if (!PLAIN_HEADERS.includes(name.toLowerCase())) secrets.push(value, ...value.trim().split(/\s+/).slice(1));
  }
  // longest first, so a secret inside another does not leave the rest of that one showing (maskSecrets skips short ones)
  return { headers, secrets: secrets.sort((a, b) => b.length - a.length) };
}
