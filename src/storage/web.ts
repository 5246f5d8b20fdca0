// webStorage(): a RunStorage over localStorage or sessionStorage. A compare-and-set runs without an await
// between its read and its write, so it is atomic inside one page; across tabs it is wrapped in a Web Lock.
import { ConfigError } from "../errors";
import type { RunStorage } from "./contract";
import { defineStorage } from "./define";
import { isExpired } from "./expiry";

/** The part of the Web Storage API this adapter uses (`localStorage`, `sessionStorage`, or your own). */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  /** With `length` and `key()`, expired entries under a non-empty prefix are swept (on the first write, then every 256th). */
  readonly length?: number;
  key?(index: number): string | null;
}

/** The part of the Web Locks API (`navigator.locks`) this adapter uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: (lock: unknown) => T | PromiseLike<T>): Promise<T>;
}

export interface WebStorageOptions {
  /** Default `globalThis.localStorage`, looked up when `webStorage()` is called. */
  storage?: WebStorageLike;
  /** Prepended to every key. Default `"toolnexus:"`. */
  prefix?: string;
  /** Serializes compare-and-set across tabs. Default `globalThis.navigator.locks` when present; `null` turns it off. */
  locks?: LockManagerLike | null;
  /** The clock TTLs are measured with, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

// Stored form: "<expiry ms or empty>|<value>". A stored string without that head (written by someone
// else under our prefix) reads as a value that never expires.
const ENVELOPE = /^(\d*)\|/;

function unwrap(raw: string): { value: () => string; expiresAt: number | undefined } {
  const head = ENVELOPE.exec(raw);
  if (head === null) return { value: () => raw, expiresAt: undefined };
  return { value: () => raw.slice(head[0].length), expiresAt: head[1] ? Number(head[1]) : undefined };
}

const wrap = (value: string, expiresAt: number | undefined): string => `${expiresAt ?? ""}|${value}`;

const SWEEP_EVERY = 256;

/** Removes this adapter's expired entries, reading only their heads' expiry. */
function sweep(storage: WebStorageLike, prefix: string, now: () => number): void {
  if (prefix === "" || typeof storage.key !== "function" || typeof storage.length !== "number") return; // never touch keys that are not ours
  for (let i = storage.length - 1; i >= 0; i--) {
    const name = storage.key(i);
    if (name === null || !name.startsWith(prefix)) continue;
    const raw = storage.getItem(name);
    if (raw !== null && isExpired(unwrap(raw).expiresAt, now)) storage.removeItem(name);
  }
}

interface Globals {
  localStorage?: WebStorageLike;
  navigator?: { locks?: LockManagerLike };
}

function resolve(options: WebStorageOptions): { storage: WebStorageLike; locks: LockManagerLike | null } {
  const g = globalThis as Globals;
  let storage = options.storage;
  if (storage === undefined) {
    try {
      storage = g.localStorage; // throws in sandboxed frames and opaque origins
    } catch {
      storage = undefined;
    }
  }
  if (storage === undefined || storage === null) {
    throw new ConfigError(
      "storage",
      "toolnexus: webStorage found no localStorage here — pass { storage: sessionStorage } or another Storage",
    );
  }
  const locks = options.locks === undefined ? (g.navigator?.locks ?? null) : options.locks;
  return { storage, locks };
}

/**
 * A RunStorage over a Web Storage area. `capabilities.atomic` is true only where Web Locks exist: a claim
 * (compareAndSet) holds the lock named `toolnexus:<prefix><key>`, so claims from different tabs take turns.
 * A full storage (`QuotaExceededError`) rejects the write. Expired entries are removed when read or swept.
 */
/* @__NO_SIDE_EFFECTS__ */
export function webStorage(options: WebStorageOptions = {}): RunStorage {
  const { storage, locks } = resolve(options);
  const prefix = options.prefix ?? "toolnexus:";
  const now = options.now ?? (() => Date.now());

  const read = (name: string): string | undefined => {
    const raw = storage.getItem(name);
    if (raw === null) return undefined;
    const { value, expiresAt } = unwrap(raw);
    if (!isExpired(expiresAt, now)) return value();
    storage.removeItem(name);
    return undefined;
  };
  let writes = 0;
  const write = (name: string, value: string, expiresAt: number | undefined): void => {
    if (writes++ % SWEEP_EVERY === 0) sweep(storage, prefix, now);
    storage.setItem(name, wrap(value, expiresAt));
  };
  const swap = (name: string, expected: string | undefined, value: string, expiresAt: number | undefined): boolean => {
    if (read(name) !== expected) return false;
    write(name, value, expiresAt);
    return true;
  };

  return defineStorage(
    {
      capabilities: { atomic: locks !== null, ttl: true },
      get: async (key) => read(prefix + key),
      set: async (key, value, expiresAt) => write(prefix + key, value, expiresAt),
      delete: async (key) => storage.removeItem(prefix + key),
      async compareAndSet(key, expected, value, expiresAt) {
        const name = prefix + key;
        if (locks === null) return swap(name, expected, value, expiresAt);
        return locks.request(`toolnexus:${name}`, () => swap(name, expected, value, expiresAt));
      },
    },
    now,
  );
}
