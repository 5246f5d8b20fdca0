// What every storage adapter shares: argument checks, TTL → absolute expiry, key fitting for stores with
// key limits, surrogate-safe chunking for stores with value limits, and a per-adapter operation queue.
import { typeName } from "../_internal/json";
import type { SetOptions } from "../types";

export function checkKey(key: unknown): asserts key is string {
  if (typeof key !== "string") throw new TypeError(`toolnexus: a storage key must be a string, got ${typeName(key)}`);
}

export function checkValue(value: unknown, what = "value"): asserts value is string {
  if (typeof value !== "string")
    throw new TypeError(
      `toolnexus: a storage ${what} must be a string, got ${typeName(value)} — store JSON.stringify(...) of it`,
    );
}

/** The absolute expiry (ms since the epoch) that `opts.ttlSeconds` asks for, or `undefined` for none. */
export function expiryOf(opts: SetOptions | undefined, now: () => number): number | undefined {
  const ttl = opts?.ttlSeconds;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) {
    throw new TypeError(
      `toolnexus: ttlSeconds must be a positive number of seconds, got ${String(ttl)} — omit it to keep the value forever`,
    );
  }
  return now() + ttl * 1000;
}

export const isExpired = (expiresAt: number | undefined, now: () => number): boolean =>
  expiresAt !== undefined && expiresAt <= now();

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Keys starting with this are the adapter's own (hashed keys, chunks, indexes); user keys never are. */
export const RESERVED = "#";

/**
 * `key` unchanged when the store can hold it, else `#h:` + its SHA-256 (hex). Hashed: keys longer than
 * `maxBytes` in UTF-8, the empty key and `.`/`..` (KV refuses them), and keys starting with `#` — so a user
 * key can never collide with a hashed key or with the adapter's own `#…` entries.
 */
export async function fitKey(key: string, maxBytes: number): Promise<string> {
  if (key !== "" && key !== "." && key !== ".." && !key.startsWith(RESERVED) && utf8Length(key) <= maxBytes) return key;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return `${RESERVED}h:${hex}`;
}

/** Splits `text` into pieces of at most `size` UTF-16 units, never between the halves of a surrogate pair. */
export function chunk(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}

/** Runs the functions it is given one after another, so an adapter's read-compare-write steps never interleave. */
export function createQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
