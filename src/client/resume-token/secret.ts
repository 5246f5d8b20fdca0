// The resume secret's one rule, shared by createClient (checked when the client is created) and
// createResumeToken.
import { typeName } from "../../_internal/json";
import { ConfigError } from "../../errors";

const MIN_SECRET_LENGTH = 16;

export function checkSecret(fn: string, secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    // the secret itself is never shown, only its kind and length
    const got = typeof secret === "string" ? `${secret.length} characters` : typeName(secret);
    throw new ConfigError(
      "resumeSecret",
      `toolnexus: ${fn} needs a secret string of at least ${MIN_SECRET_LENGTH} characters, got ${got} (e.g. 32 random bytes in base64)`,
    );
  }
}
