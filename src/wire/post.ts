// One provider POST with retries, Retry-After (or Gemini's RetryInfo) and backoff. Only infrastructure throws: the final non-2xx
// response becomes an LlmHttpError (its body redacted by http-error.ts), a final network failure a
// NetworkError (the original in `cause`); an abort stays the signal's reason.
import { NetworkError, type LlmHttpError } from "../errors";
import { secretsOf } from "../_internal/redact";
import { llmHttpError } from "./http-error";
import { abortableSleep } from "../_internal/sleep";
import { abortable } from "../_internal/signals";
import { backoffMs, retryAfterMs, retryDelayMs } from "./retry-wait";

/** What `onError` is told of a failed attempt, to choose between a retry and a failure. */
export interface ErrorInfo {
  error?: unknown;
  status?: number;
  /** 0-based. */
  attempt: number;
  retryable: boolean;
}

/** Checked once, with the client's options. */
export interface RetryOptions {
  fetch: typeof fetch;
  /** Retries after the first attempt (`0` = one attempt). */
  retries: number;
  /** Backoff = `retryBaseMs * 2 ** attempt + random * 100` ms, at most 60 s. */
  retryBaseMs: number;
  /** ADDS to 429, 500, 502, 503, 504, 529; cannot remove any. */
  retryableStatuses?: readonly number[];
  /** Default: `retryable ? "retry" : "fail"`; always bounded by `retries`. */
  onError?: (info: ErrorInfo) => "retry" | "fail";
  signal?: AbortSignal;
  /**
   * A `Retry-After` longer than this fails at once with the LlmHttpError (its `retryAfter` says when to
   * come back) instead of sleeping. Default 60000 ms.
   */
  maxRetryAfterMs?: number;
  /** Waits before a retry; must reject with `signal.reason` on abort. Default: an abortable timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const RETRYABLE_STATUSES: readonly number[] = [429, 500, 502, 503, 504, 529];
/** Waits `ms` (default: the backoff for `attempt`) with `opts.sleep`, or an abortable timer. */
function pause(opts: RetryOptions, attempt: number, ms: number = backoffMs(opts.retryBaseMs, attempt)): Promise<void> {
  return (opts.sleep ?? abortableSleep)(ms, opts.signal);
}

/** The LlmHttpError for a final non-2xx response, with the request's credentials redacted from its body. */
const httpError = (res: Response, headers: Record<string, string>): Promise<LlmHttpError> =>
  llmHttpError(res, secretsOf(headers));

/**
 * A fetch that rejected without a response, as a NetworkError naming only the host (a URL's path, query
 * or user info may hold a credential; so may the runtime's own message, which stays in `cause`).
 */
function networkError(url: string, error: unknown): NetworkError {
  let host = "the provider";
  try {
    host = new URL(url).host;
  } catch {} // not a URL: keep the generic name
  return new NetworkError(`toolnexus: could not reach ${host} — check baseUrl and the network`, { cause: error });
}

function decide(opts: RetryOptions, info: ErrorInfo): "retry" | "fail" {
  const tier = opts.onError?.(info);
  // a logging-only onError that returns nothing keeps the default
  if (tier === "retry" || tier === "fail") return tier;
  return info.retryable ? "retry" : "fail";
}

const dropBody = (late: Response): void => void late.body?.cancel().catch(() => {});

/**
 * POSTs `init.body` to `url`, retrying retryable statuses and network failures up to `opts.retries`
 * times. Resolves the first ok Response (body unread); rejects with an LlmHttpError for the final
 * non-2xx, a NetworkError for a final network failure, or `signal.reason` once aborted.
 */
export async function postWithRetry(
  url: string,
  init: { headers: Record<string, string>; body: string },
  opts: RetryOptions,
): Promise<Response> {
  const { signal } = opts;
  const statuses = new Set([...RETRYABLE_STATUSES, ...(opts.retryableStatuses ?? [])]);
  const maxRetryAfter = opts.maxRetryAfterMs ?? 60_000;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= opts.retries;
    let res: Response;
    try {
      // an abort ends the wait for the reply also when the fetch ignores the signal; a late reply is let go
      res = await abortable(
        opts.fetch(url, { method: "POST", headers: init.headers, body: init.body, signal }),
        signal,
        dropBody,
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (decide(opts, { error, attempt, retryable: true }) === "fail" || last) throw networkError(url, error);
      await pause(opts, attempt);
      continue;
    }
    if (res.ok) return res;
    const retryable = statuses.has(res.status);
    if (decide(opts, { status: res.status, attempt, retryable }) === "fail" || last)
      throw await httpError(res, init.headers);
    const error = await httpError(res, init.headers); // reading the body frees the connection before waiting
    const honoured = retryAfterMs(res.headers.get("retry-after")) ?? retryDelayMs(error.body);
    if (honoured !== undefined && honoured > maxRetryAfter) throw error;
    await pause(opts, attempt, honoured);
  }
}
