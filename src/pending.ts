// What a tool returns to suspend (pending, authRequired), and the reading of it: the Request a result
// suspends with (pendingOf) and whether it has expired (isExpired).
import { ConfigError, shown } from "./errors";
import type { PendingRequest, ToolResult } from "./types";

export interface PendingInput {
  kind: string;
  prompt: string;
  id?: string;
  url?: string;
  data?: Record<string, unknown>;
  expiresAt?: string;
}

/** A fresh unique Request id. */
export function newRequestId(): string {
  return `pnd-${crypto.randomUUID()}`;
}

export interface PendingOptions {
  /**
   * JSON the tool gets back as `ctx.state` when it is re-executed with the answer (an MCP `requestState`, a
   * cursor). Kept in the stored run only: never sent to a page, a stream or `result.pending`.
   */
  state?: unknown;
}

/**
 * What a tool returns to suspend: the Request rides in `metadata.pending` (and the tool's private state in
 * `metadata.pendingState`). Everything is checked here, so a halted run can always be loaded and resumed:
 * a bad field throws ConfigError, which the loop hands to the model as the tool's error result.
 */
/* @__NO_SIDE_EFFECTS__ */
export function pending(request: PendingInput, options: PendingOptions = {}): ToolResult {
  // objects, not only this realm's plain ones: a tool in another frame builds its request in its own realm
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  const fields: Record<string, unknown> = isObject(request) ? request : {};
  for (const key of ["kind", "prompt", "id", "url", "expiresAt"] as const) {
    const value = fields[key];
    if (value === undefined && key !== "kind" && key !== "prompt") continue;
    if (typeof value !== "string" || (value === "" && key !== "prompt")) {
      throw new ConfigError(key, `toolnexus: pending: ${key} must be a non-empty string, got ${shown(value)}`);
    }
  }
  if (request.data !== undefined && !isObject(request.data))
    throw new ConfigError("data", `toolnexus: pending: data must be a plain object, got ${shown(request.data)}`);
  if (request.expiresAt !== undefined && Number.isNaN(Date.parse(request.expiresAt)))
    throw new ConfigError(
      "expiresAt",
      `toolnexus: pending: expiresAt must be an RFC 3339 timestamp, got ${shown(request.expiresAt)}`,
    );
  const req: PendingRequest<string> = { id: request.id ?? newRequestId(), kind: request.kind, prompt: request.prompt };
  if (request.url !== undefined) req.url = request.url;
  if (request.data !== undefined) req.data = request.data;
  if (request.expiresAt !== undefined) req.expiresAt = request.expiresAt;
  const metadata: Record<string, unknown> = { pending: req };
  if (options.state !== undefined) {
    if (jsonOf(options.state) === undefined)
      throw new ConfigError("state", `toolnexus: pending: state must be JSON, got ${shown(options.state)}`);
    metadata.pendingState = options.state;
  }
  return { output: req.url ? `${req.prompt}\n${req.url}` : req.prompt, isError: true, metadata };
}

/** `value` as JSON text, or `undefined` when it has none (a function, a BigInt, a cycle, a throwing toJSON). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Suspends until the user has authorized at `url` (kind `authorization`). */
/* @__NO_SIDE_EFFECTS__ */
export function authRequired(url: string, prompt = "Authorization required to continue"): ToolResult {
  return pending({ kind: "authorization", url, prompt });
}

/** The Request a tool result suspends with, if any. */
export function pendingOf(result: ToolResult | undefined): PendingRequest | undefined {
  const p = result?.metadata?.pending;
  if (typeof p !== "object" || p === null) return undefined;
  const r = p as PendingRequest;
  return typeof r.id === "string" && typeof r.kind === "string" && typeof r.prompt === "string" ? r : undefined;
}

/** True once `now` is past the Request's `expiresAt`. An unparsable `expiresAt` counts as expired. */
export function isExpired(request: PendingRequest, now = Date.now()): boolean {
  if (request.expiresAt === undefined) return false;
  const t = Date.parse(request.expiresAt);
  return Number.isNaN(t) || now > t;
}
