// A non-2xx provider response as an LlmHttpError whose body is safe to keep: account identifiers and
// echoed credentials are removed first (see _internal/redact.ts).
import { redact } from "../_internal/redact";
import { LlmHttpError } from "../errors";

/**
 * The typed error for a non-2xx provider response: `body` is the full redacted text (`""` for 401/403,
 * whose bodies often echo the credential), `retryAfter` the raw `Retry-After` header. Reads the body.
 */
export async function llmHttpError(res: Response, secrets: readonly string[] = []): Promise<LlmHttpError> {
  const retryAfter = res.headers.get("retry-after") ?? undefined;
  let body = "";
  if (res.status !== 401 && res.status !== 403) {
    try {
      body = redact(await res.text(), secrets);
    } catch {} // an unreadable body must not hide the status
  } else {
    await res.body?.cancel().catch(() => {});
  }
  return new LlmHttpError(res.status, body, retryAfter);
}
