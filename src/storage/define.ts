// defineStorage: every adapter's methods get the same argument checks (a bad key, value or ttlSeconds is a
// ConfigError before the store is touched), and the driver the expiry instead of the options.
import { typeName } from "../_internal/json";
import { ConfigError, shown } from "../errors";
import type { RunStorage, StorageCapabilities } from "./contract";
import { expiryOf } from "./expiry";

/** A key, value or expected value must be a string; a bad key is shown, a bad value only named by its type. */
function checkString(value: unknown, what: string): asserts value is string {
  if (typeof value !== "string") {
    const got = what === "key" ? shown(value) : typeName(value);
    throw new ConfigError(what, `toolnexus: a storage ${what} must be a string, got ${got}`);
  }
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
 * What a binding option (a client, a database, a namespace) got instead, by its kind — never its value: a
 * connection string passed by mistake holds a password. An object is named by its first keys.
 */
export function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === "object") return shown(value);
  const kind = `a ${typeName(value)}`;
  return typeof value === "string" ? `${kind} (pass the client made from a connection string, not the string)` : kind;
}
