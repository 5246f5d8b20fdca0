// A fault-injecting RunStorage wrapper, and the resume race every atomic adapter is put through.
//   const storage = faultyStorage(memoryStorage());
//   storage.fail("set", new Error("disk full"));          // the next set rejects
//   storage.beforeCompareAndSet = async (key) => { … };   // a racer changes the record between get and CAS
import type { RunStorage } from "toolnexus";

export type Op = "get" | "set" | "delete" | "compareAndSet";

export interface FaultyStorage extends RunStorage {
  readonly inner: RunStorage;
  /** Every operation that reached the wrapper, in order. */
  readonly log: { op: Op; key: string }[];
  /** The next `times` (default 1) calls of `op` on a key starting with `prefix` (default "run:") reject with `error`. */
  fail(op: Op, error: unknown, opts?: { times?: number; prefix?: string }): void;
  /** Runs before each compareAndSet reaches the inner store: a racer can change the record here. */
  beforeCompareAndSet?: (key: string, expected: string | undefined, value: string) => Promise<void> | void;
  /** Runs before each get reaches the inner store (e.g. a barrier that lines racers up). */
  beforeGet?: (key: string) => Promise<void> | void;
}

export interface FaultyOptions {
  /** Override what the wrapper reports (e.g. `{ ttl: false }` so a finished run is deleted, not kept). */
  capabilities?: Partial<RunStorage["capabilities"]>;
  /** Report no compareAndSet at all (the SDK then falls back to a best-effort get-then-set). */
  withoutCompareAndSet?: boolean;
}

export function faultyStorage(inner: RunStorage, options: FaultyOptions = {}): FaultyStorage {
  const faults: { op: Op; error: unknown; left: number; prefix: string }[] = [];
  const log: { op: Op; key: string }[] = [];
  const check = (op: Op, key: string): void => {
    log.push({ op, key });
    const fault = faults.find((f) => f.op === op && f.left > 0 && key.startsWith(f.prefix));
    if (!fault) return;
    fault.left--;
    throw fault.error;
  };
  const storage: FaultyStorage = {
    inner,
    log,
    capabilities: { ...inner.capabilities, ...options.capabilities },
    fail(op, error, opts = {}) {
      faults.push({ op, error, left: opts.times ?? 1, prefix: opts.prefix ?? "run:" });
    },
    async get(key) {
      await storage.beforeGet?.(key);
      check("get", key);
      return inner.get(key);
    },
    async set(key, value, opts) {
      check("set", key);
      return inner.set(key, value, opts);
    },
    async delete(key) {
      check("delete", key);
      return inner.delete(key);
    },
  };
  if (inner.compareAndSet && !options.withoutCompareAndSet) {
    storage.compareAndSet = async (key, expected, value, opts) => {
      await storage.beforeCompareAndSet?.(key, expected, value);
      check("compareAndSet", key);
      return inner.compareAndSet!(key, expected, value, opts);
    };
  }
  return storage;
}

// the resume race and its counting tool are the published ones (toolnexus/testing)
export { countingTool, raceResumes } from "toolnexus/testing";
export type { RaceOutcome } from "toolnexus/testing";

/** Holds callers until `size` of them are waiting, then lets that whole group through (and starts the next). */
export function barrier(size: number): () => Promise<void> {
  let waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length < size) return;
      const group = waiting;
      waiting = [];
      group.forEach((release) => release());
    });
}
