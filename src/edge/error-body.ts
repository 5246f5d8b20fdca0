// What a page is told when something fails on the edge: `{ error: { code, message } }` with a status that
// fits, or the same `{ code, message }` as an `error` event once a stream has started. Only messages this
// package wrote are passed on; anything else (a foreign exception, a storage driver's text) stays on the
// server behind a fixed message.
import { isToolnexusError } from "../errors";

export interface ErrorPayload {
  code: string;
  message: string;
}

/** The HTTP status for an error code: 4xx for what the caller can fix, 502 for the model upstream, else 500. */
const STATUS: Record<string, number> = {
  bad_request: 400,
  invalid_answer: 400,
  resume_token: 403,
  run_not_found: 404,
  method_not_allowed: 405,
  answer_mismatch: 409,
  run_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  llm_http: 502,
  stream: 502,
  network: 502,
};

const INTERNAL = "toolnexus: the run failed on the server (details stay there)";
const STORAGE = "toolnexus: the run storage failed (details stay on the server) — try again";

/** The `{ code, message }` a page may see for `error`. */
export function errorPayload(error: unknown): ErrorPayload {
  if (!isToolnexusError(error)) return { code: "internal", message: INTERNAL };
  // a StorageError's message quotes its driver's own error, which this package did not write
  if (error.code === "storage") return { code: "storage", message: STORAGE };
  return { code: error.code, message: error.message };
}

/** A JSON error response: `{ error: { code, message } }` with the status that fits the code. */
export function errorResponse(payload: ErrorPayload, init?: HeadersInit): Response {
  const headers = new Headers(init);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify({ error: payload }), { status: STATUS[payload.code] ?? 500, headers });
}
