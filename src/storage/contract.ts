// The storage contract every adapter meets: a string key-value store, with an optional compare-and-set and
// the capabilities it declares.

export interface StorageCapabilities {
  /** `compareAndSet` is linearizable: two racing claims cannot both win. */
  atomic: boolean;
  /** `ttlSeconds` is honoured. */
  ttl: boolean;
}

export interface SetOptions {
  ttlSeconds?: number;
}

/** A string key-value store for suspended runs and conversations. */
export interface RunStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, opts?: SetOptions): Promise<void>;
  delete(key: string): Promise<void>;
  /** Writes `value` only if the current value is `expected` (`undefined` = absent). Resolves whether it wrote. */
  compareAndSet?(key: string, expected: string | undefined, value: string, opts?: SetOptions): Promise<boolean>;
  readonly capabilities: StorageCapabilities;
}
