// What every storage adapter shares: defineStorage (the argument checks every adapter's methods get),
// TTL → absolute expiry, key fitting for stores with key limits, the chunked-value format for stores with
// value limits, and a per-adapter operation queue.
import { isPlainObject, typeName } from "../_internal/json";
import { sha256Hex } from "../_internal/sha256";
import { ConfigError, shown } from "../errors";
import type { RunStorage, SetOptions, StorageCapabilities } from "../types";

/** A key, value or expected value must be a string; a bad key is shown, a bad value only named by its type. */
function checkString(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string") {
    const got = what === "key" ? shown(value) : typeName(value);
    throw new ConfigError(what, `toolnexus: a storage ${what} must be a string, got ${got}`);
  }
}

/**
 * What a binding option (a client, a database, a namespace) got instead, by its kind — never its value: a
 * connection string passed by mistake holds a password. An object is named by its first keys.
 */
export function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === "object") return shown(value);
  const kind = `a ${typeName(value)}`;
  return typeof value === "string" ? `${kind} (pass the client made from a connection string, not the string)` : kind;
}

/**
 * The expiry `opts.ttlSeconds` asks for, in whole ms on the clock `now` (undefined: none). On a clock that
 * reads 0 it is the TTL itself, for stores that take one.
 */
function expiryOf(opts: SetOptions | undefined, now: () => number): number | undefined {
  const ttl = opts?.ttlSeconds;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)
    throw new ConfigError(
      "ttlSeconds",
      `toolnexus: ttlSeconds must be a number > 0 (omit it for no expiry), got ${shown(ttl)}`,
    );
  return Math.ceil(now() + ttl * 1000);
}

export const isExpired = (expiresAt: number | undefined, now: () => number): boolean =>
  expiresAt !== undefined && expiresAt <= now();

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

/**
 * What an adapter implements: RunStorage's methods, called by {@link defineStorage} once their arguments are
 * checked, with the expiry `ttlSeconds` asks for (from {@link expiryOf}) instead of the options.
 */
export interface StorageDriver {
  readonly capabilities: StorageCapabilities;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, expires: number | undefined): Promise<void>;
  delete(key: string): Promise<void>;
  compareAndSet(
    key: string,
    expected: string | undefined,
    value: string,
    expires: number | undefined,
  ): Promise<boolean>;
}

/**
 * A RunStorage over `driver`: every method checks its key, value, expected value and `ttlSeconds` first
 * (a bad one rejects with a ConfigError before the store is touched), then calls the driver's with the
 * expiry on the clock `now` — by default one that reads 0, so the driver gets the TTL in ms.
 */
export function defineStorage(driver: StorageDriver, now: () => number = () => 0): RunStorage {
  return {
    capabilities: driver.capabilities,
    async get(key) {
      checkString(key, "key");
      return driver.get(key);
    },
    async set(key, value, opts) {
      checkString(key, "key");
      checkString(value, "value");
      await driver.set(key, value, expiryOf(opts, now));
    },
    async delete(key) {
      checkString(key, "key");
      await driver.delete(key);
    },
    async compareAndSet(key, expected, value, opts) {
      checkString(key, "key");
      checkString(value, "value");
      if (expected !== undefined) checkString(expected, "expected value");
      return driver.compareAndSet(key, expected, value, expiryOf(opts, now));
    },
  };
}

/**
 * The chunked-value format, for stores that limit a value's size (Durable Objects, Deno KV): the head
 * entry under the key holds the value itself when it fits, else the id and count of the chunks holding it
 * under fresh keys; `e` is the expiry in ms since the epoch. A plain string under the key (written by
 * someone else) reads as a value that never expires.
 */
export interface Head {
  v?: string; // the value, when it fits in one entry
  g?: string; // else the id of its chunks…
  n?: number; // …and how many there are
  e?: number; // expiry, ms since the epoch
}

/** The head a stored entry holds, or `undefined` when it is not one this format wrote. */
export function readHead(raw: unknown): Head | undefined {
  if (typeof raw === "string") return { v: raw };
  if (!isPlainObject(raw)) return undefined;
  const h = raw as Head;
  if (h.e !== undefined && typeof h.e !== "number") return undefined;
  return typeof h.v === "string" || (typeof h.g === "string" && Number.isInteger(h.n)) ? h : undefined;
}

/** The head for `value` and the chunks to write first: none when it fits in `size` UTF-16 units. */
export function headFor(value: string, size: number, e: number | undefined): { head: Head; parts: string[] } {
  const parts = value.length <= size ? [] : chunk(value, size);
  const head: Head = parts.length === 0 ? { v: value } : { g: crypto.randomUUID(), n: parts.length };
  if (e !== undefined) head.e = e;
  return { head, parts };
}
