// What a page is told when something fails on the edge: the protocol's error body (protocol/error-body.ts)
// with a status that fits, or the same fields as an `error` event once a stream has started. Only messages
// this package wrote are passed on; anything else (a foreign exception, a storage driver's text) stays on the
// server behind a fixed message.
import { isToolnexusError } from "../errors";
import { type ErrorBody, type ErrorPayload, payloadOfError, statusOf } from "../protocol/error-body";

export type { ErrorPayload } from "../protocol/error-body";

const INTERNAL = "toolnexus: the run failed on the server (details stay there)";
const STORAGE = "toolnexus: the run storage failed (details stay on the server) — try again";

/** The `{ code, reason?, message }` a page may see for `error`. */
export function errorPayload(error: unknown): ErrorPayload {
  if (!isToolnexusError(error)) return { code: "internal", message: INTERNAL };
  // a StorageError's message quotes its driver's own error, which this package did not write
  if (error.code === "storage") return { code: "storage", message: STORAGE };
  return payloadOfError(error);
}

/** A JSON error response: `{ error: { code, reason?, message } }` with the status that fits the code. */
export function errorResponse(payload: ErrorPayload, init?: HeadersInit): Response {
  const headers = new Headers(init);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("cache-control", "no-store");
  const body: ErrorBody = { error: payload };
  return new Response(JSON.stringify(body), { status: statusOf(payload.code), headers });
}
