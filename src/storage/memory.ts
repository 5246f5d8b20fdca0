// memoryStorage(): the default RunStorage — a Map in this isolate. Atomic; TTL with lazy expiry on read.
import type { RunStorage } from "./contract";
import { defineStorage } from "./define";
import { isExpired } from "./expiry";

export interface MemoryStorageOptions {
  /** The clock TTLs are measured with, in ms since the epoch (tests pass a fake one). Default `Date.now`. */
  now?: () => number;
}

const PURGE_EVERY = 256;

interface Entry {
  value: string;
  expiresAt: number | undefined;
}

/** A RunStorage held in memory: gone when the isolate/process ends, shared by everything that holds this object. */
/* @__NO_SIDE_EFFECTS__ */
export function memoryStorage(options: MemoryStorageOptions = {}): RunStorage {
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, Entry>();

  const read = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (!isExpired(entry.expiresAt, now)) return entry.value;
    entries.delete(key);
    return undefined;
  };
  // expired entries nobody reads again are dropped by a scan once there have been as many writes as
  // entries (at least PURGE_EVERY): the scan's cost, spread over those writes, stays constant per write
  let writes = 0;
  const write = (key: string, value: string, expiresAt: number | undefined): void => {
    if (++writes >= PURGE_EVERY && writes >= entries.size) {
      writes = 0;
      const at = now(); // one clock read per sweep, not one per entry
      for (const [k, e] of entries) if (e.expiresAt !== undefined && e.expiresAt <= at) entries.delete(k);
    }
    entries.set(key, { value, expiresAt });
  };

  return defineStorage(
    {
      capabilities: { atomic: true, ttl: true },
      get: async (key) => read(key),
      set: async (key, value, expires) => write(key, value, expires),
      delete: async (key) => void entries.delete(key),
      // no await between the read and the write: nothing else can run in between
      async compareAndSet(key, expected, value, expires) {
        if (read(key) !== expected) return false;
        write(key, value, expires);
        return true;
      },
    },
    now,
  );
}
