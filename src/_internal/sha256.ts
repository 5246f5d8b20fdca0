// SHA-256 of a string's UTF-8 bytes as lower-case hex, through WebCrypto (every runtime the SDK supports has
// `crypto.subtle`). Stored records, keys and approval digests are these hex strings.

/** Lower-case hex SHA-256 of `text` encoded as UTF-8. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
