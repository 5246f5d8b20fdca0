// Keys fitted to stores with key limits: a key too long (or one the store refuses) is hashed, and the
// adapter's own entries are kept apart under a reserved prefix.
import { sha256Hex } from "../_internal/sha256";

/** `text`'s length in UTF-8 bytes (a lone surrogate counts as the 3 bytes of U+FFFD it is written as). */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

/** Keys starting with this are the adapter's own (hashed keys, chunks, indexes); user keys never are. */
export const RESERVED = "#";

/**
 * `key` unchanged when the store can hold it, else `#h:` + its SHA-256 (hex). Hashed: keys longer than
 * `maxBytes` in UTF-8, the empty key and `.`/`..` (KV refuses them), and keys starting with `#` — so a user
 * key can never collide with a hashed key or with the adapter's own `#…` entries.
 */
export async function fitKey(key: string, maxBytes: number): Promise<string> {
  if (key !== "" && key !== "." && key !== ".." && !key.startsWith(RESERVED) && utf8Length(key) <= maxBytes) return key;
  return `${RESERVED}h:${await sha256Hex(key)}`;
}
