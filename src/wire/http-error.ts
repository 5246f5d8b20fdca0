// Provider error bodies, made safe to keep: account identifiers and echoed credentials are removed
// before a body reaches an LlmHttpError (contract §1.10 "Redaction"). Loaded with the first error to redact.
import { LlmHttpError } from "../errors";

/** Body keys whose values identify an account; their values are replaced in JSON and form bodies. */
export const REDACTED_BODY_KEYS: readonly string[] = ["user_id", "account_id", "org_id", "organization"];
export const REDACTION_PLACEHOLDER = "«redacted»";

const JSON_SCALAR = String.raw`(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
// the same scalar inside a JSON string that itself holds JSON: \"user_id\": \"u-1\"
const ESCAPED_SCALAR = String.raw`(?:\\"(?:[^"\\]|\\[^"])*\\"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;

// Credentials a provider may echo back ("Incorrect API key provided: sk-…"): bearer tokens and key-shaped words.
const CREDENTIAL_PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTION_PLACEHOLDER}`],
  [/\b(?:sk|pk|rk)-[A-Za-z0-9][A-Za-z0-9_\-*.]*/g, REDACTION_PLACEHOLDER],
  [
    /("(?:api[_-]?key|x-api-key|authorization|access_token|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
    `$1"${REDACTION_PLACEHOLDER}"`,
  ],
];

// header names whose values are credentials: their values never survive into an error body
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|cookie|organization|project/i;

/** The values of credential-looking headers (and the token after Bearer/Basic): never in an error. */
export function secretsOf(headers: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name) || !value) continue;
    out.push(value);
    const token = /^(?:Bearer|Basic)\s+(.+)$/i.exec(value)?.[1];
    if (token) out.push(token);
  }
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Removes account identifiers (`REDACTED_BODY_KEYS`, in JSON and `key=value` form) and anything that
 * looks like a credential (`Bearer …`, `sk-…`, JSON `api_key`/`authorization` values) from an error
 * body, then trims it. `secrets` are exact strings (e.g. the request's API key) removed wherever they appear.
 */
export function redactErrorBody(body: string, secrets: readonly string[] = []): string {
  let out = body;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTION_PLACEHOLDER);
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
  for (const key of REDACTED_BODY_KEYS) {
    const k = escapeRegExp(key);
    out = out
      .replace(new RegExp(`("${k}"\\s*:\\s*)${JSON_SCALAR}`, "g"), `$1"${REDACTION_PLACEHOLDER}"`)
      .replace(new RegExp(`(\\\\"${k}\\\\"\\s*:\\s*)${ESCAPED_SCALAR}`, "g"), `$1\\"${REDACTION_PLACEHOLDER}\\"`)
      .replace(new RegExp(`\\b(${k}=)[^&\\s"',;]*`, "g"), `$1${REDACTION_PLACEHOLDER}`);
  }
  return out.trim();
}

/**
 * The typed error for a non-2xx provider response: `body` is the full redacted text (`""` for 401/403,
 * whose bodies often echo the credential), `retryAfter` the raw `Retry-After` header. Reads the body.
 */
export async function llmHttpError(res: Response, secrets: readonly string[] = []): Promise<LlmHttpError> {
  const retryAfter = res.headers.get("retry-after") ?? undefined;
  let body = "";
  if (res.status !== 401 && res.status !== 403) {
    try {
      body = redactErrorBody(await res.text(), secrets);
    } catch {
      body = ""; // an unreadable body must not hide the status
    }
  } else {
    await res.body?.cancel().catch(() => {});
  }
  return new LlmHttpError(res.status, body, retryAfter);
}
