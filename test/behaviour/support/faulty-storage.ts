// A fault-injecting RunStorage wrapper, and the resume race every atomic adapter is put through.
//   const storage = faultyStorage(memoryStorage());
//   storage.fail("set", new Error("disk full"));          // the next set rejects
//   storage.beforeCompareAndSet = async (key) => { … };   // a racer changes the record between get and CAS
import { answerOutput, createClient, defineTool, pending, type RunStorage, type Tool } from "toolnexus";
import { scripted } from "./scripted";

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

export interface RaceOutcome {
  /** How many times the suspended tool really ran after its answer (exactly once is the promise). */
  executions: number;
  fulfilled: number;
  /** The `code` (or name, for an untyped error) of every rejection. */
  rejected: string[];
  /** What the record says once the dust settles. */
  stored: string | undefined;
}

/** A tool that suspends once (Request id `q-<name>`) and counts its re-executions (the side effects exactly-once protects). */
export function countingTool(name = "book"): { tool: Tool; executions: () => number } {
  let executions = 0;
  const tool = defineTool({
    name,
    description: "books once approved",
    execute: async (_args, ctx) => {
      if (!ctx?.answer) return pending({ kind: "approval", prompt: `${name}?`, id: `q-${name}` });
      executions++;
      await new Promise((resolve) => setTimeout(resolve, 1)); // a real side effect takes time
      return `booked for ${ctx.answer.data?.output}`;
    },
  });
  return { tool, executions: () => executions };
}

/**
 * Halts one run into `storage`, then resumes it `n` times at once (each from its own client, as separate
 * requests would), and reports how often the tool ran and how each resume ended.
 */
export async function raceResumes(
  storage: RunStorage,
  n = 100,
  make: () => RunStorage = () => storage,
): Promise<RaceOutcome> {
  const { tool, executions } = countingTool();
  const reply = scripted(
    "openai",
    Array.from({ length: n + 1 }, (_, i) => (i === 0 ? { calls: [{ name: "book" }] } : { text: "done" })),
  );
  const base = {
    baseUrl: "https://llm.test/v1",
    style: "openai",
    model: "m",
    apiKey: "sk-race",
    fetch: reply.fetch,
  } as const;
  const halted = await createClient({ ...base, storage }).run("book a table", { toolkit: [tool] });
  if (halted.status !== "pending") throw new Error(`the race needs a halted run, got ${halted.status}`);
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      createClient({ ...base, storage: make() }).resume(halted.runId!, answerOutput("q-book", `guest ${i}`), {
        toolkit: [tool],
      }),
    ),
  );
  const rejected = settled.flatMap((r) =>
    r.status === "rejected"
      ? [String((r.reason as { code?: string; name?: string })?.code ?? (r.reason as Error)?.name ?? r.reason)]
      : [],
  );
  return {
    executions: executions(),
    fulfilled: settled.length - rejected.length,
    rejected,
    stored: await storage.get(`run:${halted.runId}`),
  };
}

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
