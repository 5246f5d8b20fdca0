// The resume secret's one rule, shared by createClient (checked when the client is created) and
// createResumeToken. Kept apart from resume-token.ts so a client that never sees a token does not load
// the token codec.

const MIN_SECRET_LENGTH = 16;

export function checkSecret(fn: string, secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(
      `toolnexus: ${fn} needs a secret string of at least ${MIN_SECRET_LENGTH} characters — use e.g. 32 random bytes, base64-encoded, kept server-side`,
    );
  }
}

/** The client's resume-token settings, checked when the client is created. */
export function checkResumeConfig(secret: string | undefined, required: boolean): void {
  if (secret !== undefined) checkSecret("createClient resumeSecret", secret);
  if (required && secret === undefined)
    throw new TypeError("toolnexus: createClient requireResumeToken needs resumeSecret to verify tokens with");
}
