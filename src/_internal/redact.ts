// The one redaction helper: account identifiers and credentials are removed from any provider text an
// error will carry (HTTP error bodies, error objects in a reply, stream error events, SDK error messages).

/** Body keys whose values identify an account; their values are replaced in JSON and form bodies. */
export const REDACTED_BODY_KEYS: readonly string[] = ["user_id", "account_id", "org_id", "organization"];
export const REDACTION_PLACEHOLDER = "«redacted»";

// header names whose values are credentials: their values never survive into an error
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

/** `text` with every exact `secret` of at least 4 characters replaced by the placeholder. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTION_PLACEHOLDER);
  return out;
}

/**
 * `text` without account identifiers (`REDACTED_BODY_KEYS`, in JSON and `key=value` form) and anything
 * that looks like a credential (`Bearer …`, `sk-…`, JSON `api_key`/`authorization` values), trimmed.
 * `secrets` are exact strings (e.g. the request's API key) removed wherever they appear.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  // the patterns are built where they are used: a bundle that never redacts (a page) carries none of them
  // the end of a JSON scalar after its string form: a number, true, false or null
  const scalar = String.raw`|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
  const rules: [RegExp, string][] = [
    // credentials a provider may echo back ("Incorrect API key provided: sk-…"): bearer tokens and key-shaped words
    [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTION_PLACEHOLDER}`],
    [/\b(?:sk|pk|rk)-[A-Za-z0-9][A-Za-z0-9_\-*.]*/g, REDACTION_PLACEHOLDER],
    // account ids inside message text ("… in organization org-AbC123 on tokens per min"): OpenAI org and project ids
    [/\b(?:org|proj)[-_][A-Za-z0-9]{6,}\b/g, REDACTION_PLACEHOLDER],
    [
      /("(?:api[_-]?key|x-api-key|authorization|access_token|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
      `$1"${REDACTION_PLACEHOLDER}"`,
    ],
  ];
  // each body key's value (a plain word: nothing to escape): in JSON, in a JSON string that itself holds JSON
  // (\"user_id\": \"u-1\"), in a form
  for (const k of REDACTED_BODY_KEYS)
    rules.push(
      [new RegExp(String.raw`("${k}"\s*:\s*)(?:"(?:[^"\\]|\\.)*"${scalar}`, "g"), `$1"${REDACTION_PLACEHOLDER}"`],
      [
        new RegExp(String.raw`(\\"${k}\\"\s*:\s*)(?:\\"(?:[^"\\]|\\[^"])*\\"${scalar}`, "g"),
        `$1\\"${REDACTION_PLACEHOLDER}\\"`,
      ],
      [new RegExp(String.raw`\b(${k}=)[^&\s"',;]*`, "g"), `$1${REDACTION_PLACEHOLDER}`],
    );
  let out = maskSecrets(text, secrets);
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out.trim();
}
