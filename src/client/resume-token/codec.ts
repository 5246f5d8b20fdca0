// The resume token's format: `tn1.<claims as base64url JSON>.<HMAC-SHA-256 as base64url>`, made by a client
// with a resumeSecret and by createResumeToken, checked by verify.ts.

export const VERSION = "tn1";
export const MAX_TOKEN_LENGTH = 8192;

export interface Claims {
  /** run id */
  r: string;
  /** request id */
  q: string;
  /** expiry, ms since the epoch */
  e: number;
}

/** A string's UTF-8 bytes (an encoder per call: a module-level one would be kept in every bundle importing this file). */
export const utf8 = (text: string) => new TextEncoder().encode(text);

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decoded bytes, or `undefined` for anything that is not strict base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

let last: { secret: string; key: Promise<CryptoKey> } | undefined;

/** The HMAC key of `secret`: imported once for the secret used last (a client signs and checks with one). */
export function hmacKey(secret: string): Promise<CryptoKey> {
  if (last?.secret !== secret) {
    const key = crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    last = { secret, key };
  }
  return last.key;
}

/** The token for the request `requestId` of the run `runId`, good for `ttlSeconds` (default one day) from `now`. */
export async function issueToken(
  runId: string,
  requestId: string,
  secret: string,
  ttlSeconds = 86_400,
  now = Date.now(),
): Promise<string> {
  const claims: Claims = { r: runId, q: requestId, e: Math.floor(now + ttlSeconds * 1000) };
  const body = `${VERSION}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), utf8(body)));
  return `${body}.${toBase64Url(signature)}`;
}
