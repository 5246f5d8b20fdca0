// SHA-256 (hex) of a string's UTF-8 bytes, by WebCrypto: every runtime the core runs in has
// `crypto.subtle.digest` (a page only in a secure context: https or localhost).

/** The SHA-256 of `text`'s UTF-8 bytes, as 64 lowercase hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
