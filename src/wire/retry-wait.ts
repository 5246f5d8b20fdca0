// Waiting before a retry: exponential backoff with jitter, a whole-seconds Retry-After or Gemini's retryDelay,
// on an abortable timer (_internal/sleep.ts), for postWithRetry (post.ts).
const MAX_BACKOFF_MS = 60_000;
const MAX_RETRY_AFTER_SECONDS = 2_147_483_647;

/** `Retry-After` in ms when it is whole seconds (`^[0-9]+$` after trim, ≤ 2147483647); else undefined. */
export function retryAfterMs(header: string | null): number | undefined {
  const value = header?.trim() ?? "";
  if (!/^[0-9]+$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds <= MAX_RETRY_AFTER_SECONDS ? seconds * 1000 : undefined;
}

/**
 * Gemini's wait, which it sends in the error body rather than a header: a `google.rpc.RetryInfo` detail's
 * `retryDelay` (a protobuf Duration in JSON, e.g. `"34.4s"`), in ms; else undefined.
 */
export function retryDelayMs(body: string): number | undefined {
  const seconds = /"retryDelay"\s*:\s*"([0-9]+(?:\.[0-9]+)?)s"/.exec(body)?.[1];
  return seconds === undefined ? undefined : Math.ceil(Number(seconds) * 1000);
}

export function backoffMs(base: number, attempt: number): number {
  return Math.min(base * 2 ** attempt + Math.random() * 100, MAX_BACKOFF_MS);
}
