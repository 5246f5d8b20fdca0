// The contract every RunStorage adapter keeps, as a suite any test runner can run — pass its `describe`
// and `it` (vitest, node:test, bun:test, Deno's @std/testing/bdd), or leave them out where they are
// properties of globalThis (vitest with `globals: true`, Jest, mocha):
//   storageContract("myStorage", () => myStorage(), { describe, it });
// Every test builds its own adapter with `makeStorage` and uses keys under a fresh tag (except the odd-keys
// test, whose keys are literal and cleared first).
import { ConfigError, type RunStorage } from "../index";
import { equal, ok, rejects } from "./assert";
import { raceResumes } from "./race";
import { bigValue, ODD_KEYS, ODD_VALUES } from "./values";

export interface ContractEnv {
  /** A fake clock (ms since the epoch) the suite moves forward in `ttl: "clock"` mode; pass it to the adapter. */
  now: () => number;
}

type TestBody = () => Promise<void> | void;

/** The two test functions the suite registers with; any runner's `describe`/`it` fit. */
export interface ContractTestFunctions {
  describe: (name: string, fn: () => void) => unknown;
  /** Called as `it(name, fn, timeoutMs)`; runners that take no timeout there ignore it. */
  it: (name: string, fn: TestBody, timeout?: number) => unknown;
}

export interface ContractOptions extends Partial<ContractTestFunctions> {
  /** The expected `capabilities.atomic`; racing writers must then have exactly one winner. Default `true`. */
  atomic?: boolean;
  /**
   * How expiry is checked: "clock" — the adapter uses `env.now` and the suite advances it; "wait" (default)
   * — real expiry, one wait of 1.3 s; "accept" — the store cannot expire that fast (Workers KV's 60 s
   * minimum), so only check that short TTLs are accepted and the value stays readable.
   */
  ttl?: "clock" | "wait" | "accept";
  /** How many writers race one key (default 50). */
  racers?: number;
  /** How many clients resume one suspension at once (default 100). */
  resumes?: number;
  /** The per-test time limit passed to `it` for the slow tests, in ms (default 30 000). */
  timeout?: number;
}

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function testFunctions(opts: ContractOptions): ContractTestFunctions {
  const g = globalThis as Partial<ContractTestFunctions>;
  const describe = opts.describe ?? g.describe;
  const it = opts.it ?? g.it;
  if (typeof describe !== "function" || typeof it !== "function") {
    throw new ConfigError(
      "it",
      "toolnexus/testing: storageContract needs your runner's test functions — storageContract(name, make, { describe, it })",
    );
  }
  return { describe, it };
}

interface Subject {
  storage: RunStorage;
  /** A key under this test's own tag. */
  k(suffix: string): string;
  advance(ms: number): void;
  cas(key: string, expected: string | undefined, value: string, ttlSeconds?: number): Promise<boolean>;
}

/** Registers the contract suite for one adapter (call it at the top level of a test file). */
export function storageContract(
  name: string,
  makeStorage: (env: ContractEnv) => RunStorage | Promise<RunStorage>,
  opts: ContractOptions = {},
): void {
  const { describe, it } = testFunctions(opts);
  const atomic = opts.atomic ?? true;
  const timeout = opts.timeout ?? 30_000;

  const subject = async (): Promise<Subject> => {
    const base = Date.now();
    let offset = 0;
    const tag = `contract-${crypto.randomUUID()}`;
    const storage = await makeStorage({ now: () => base + offset });
    return {
      storage,
      k: (suffix) => `${tag}/${suffix}`,
      advance: (ms) => {
        offset += ms;
      },
      cas: (key, expected, value, ttlSeconds) => {
        ok(typeof storage.compareAndSet === "function", "the adapter has compareAndSet");
        return storage.compareAndSet!(key, expected, value, ttlSeconds === undefined ? undefined : { ttlSeconds });
      },
    };
  };
  const test = (title: string, body: (s: Subject) => Promise<void>, limit?: number) =>
    it(title, async () => body(await subject()), limit ?? timeout);

  describe(`storage contract: ${name}`, () => {
    basics(test, atomic);
    describe("compareAndSet", () => compareAndSet(test, atomic, opts.racers ?? 50));
    values(test);
    describe("ttl", () => ttl(test, opts.ttl ?? "wait"));
    resumes(test, atomic, opts.resumes ?? 100);
  });
}

type Register = (title: string, body: (s: Subject) => Promise<void>, limit?: number) => unknown;

function basics(test: Register, atomic: boolean): void {
  test("declares its capabilities", async ({ storage }) => {
    equal(storage.capabilities, { atomic, ttl: true }, "capabilities");
  });

  test("reads undefined for a key never written", async ({ storage, k }) => {
    equal(await storage.get(k("never")), undefined, "get of a key never written");
  });

  test("round-trips a value and overwrites it", async ({ storage, k }) => {
    await storage.set(k("a"), "first");
    equal(await storage.get(k("a")), "first", "get after set");
    await storage.set(k("a"), "second");
    equal(await storage.get(k("a")), "second", "get after a second set");
  });

  test("deletes a key, and deleting a missing key is fine", async ({ storage, k }) => {
    await storage.set(k("a"), "v");
    await storage.set(k("b"), "kept");
    await storage.delete(k("a"));
    equal(await storage.get(k("a")), undefined, "get after delete");
    equal(await storage.get(k("b")), "kept", "another key after the delete");
    equal(await storage.delete(k("a")), undefined, "deleting a deleted key");
    equal(await storage.delete(k("never")), undefined, "deleting a key never written");
  });

  test("keeps the empty string distinct from absent", async ({ storage, k, cas }) => {
    await storage.set(k("e"), "");
    equal(await storage.get(k("e")), "", "get of an empty value");
    equal(await cas(k("e"), undefined, "x"), false, "create-if-absent over an empty value");
    equal(await cas(k("e"), "", "x"), true, "swap from the empty value");
    equal(await storage.get(k("e")), "x", "get after the swap");
  });

  test("rejects a non-string value and a non-positive ttl, changing nothing", async ({ storage, k }) => {
    await rejects(storage.set(k("bad"), 42 as unknown as string), "must be a string", "set of a number");
    await rejects(storage.set(k("bad"), "v", { ttlSeconds: 0 }), "ttlSeconds", "set with ttlSeconds 0");
    await rejects(storage.set(k("bad"), "v", { ttlSeconds: Number.NaN }), "ttlSeconds", "set with ttlSeconds NaN");
    equal(await storage.get(k("bad")), undefined, "get after the refused writes");
  });
}

function compareAndSet(test: Register, atomic: boolean, racers: number): void {
  test("creates only if absent", async ({ storage, k, cas }) => {
    equal(await cas(k("c"), undefined, "a"), true, "create on an absent key");
    equal(await storage.get(k("c")), "a", "get after the create");
    equal(await cas(k("c"), undefined, "b"), false, "create on a present key");
    equal(await storage.get(k("c")), "a", "get after the refused create");
  });

  test("swaps only when the current value is the expected one", async ({ storage, k, cas }) => {
    await storage.set(k("c"), "a");
    equal(await cas(k("c"), "a", "b"), true, "swap from the current value");
    equal(await cas(k("c"), "a", "c"), false, "swap from a stale value");
    equal(await storage.get(k("c")), "b", "get after the swaps");
    equal(await cas(k("absent"), "x", "y"), false, "swap on an absent key");
    equal(await storage.get(k("absent")), undefined, "get of the absent key after the refused swap");
  });

  test("sees a deleted key as absent", async ({ storage, k, cas }) => {
    await storage.set(k("c"), "a");
    await storage.delete(k("c"));
    equal(await cas(k("c"), "a", "z"), false, "swap from the deleted value");
    equal(await cas(k("c"), undefined, "z"), true, "create over the deleted key");
    equal(await storage.get(k("c")), "z", "get after the create");
  });

  const race = async ({ storage, cas }: Subject, key: string, expected: string | undefined) => {
    const writers = Array.from({ length: racers }, (_, i) => `writer-${i}`);
    const won = await Promise.all(writers.map((w) => cas(key, expected, w)));
    const winners = writers.filter((_, i) => won[i]);
    const final = await storage.get(key);
    if (atomic) {
      equal(
        winners.length,
        1,
        `winners among ${racers} racing writers (${winners.slice(0, 5).join(", ")}${winners.length > 5 ? ", …" : ""})`,
      );
      equal(final, winners[0], "the stored value is the winner's");
    } else {
      // best effort (documented): at least one writer believes it won and the value is a writer's
      ok(winners.length >= 1, `at least one of ${racers} racing writers wins`);
      ok(writers.includes(final!), `the stored value ${String(final)} is a writer's`);
    }
  };
  const best = atomic ? "" : " (best effort: not atomic)";
  test(`lets exactly one of ${racers} racing creators win${best}`, async (s) => race(s, s.k("race-create"), undefined));
  test(`lets exactly one of ${racers} racing swappers win${best}`, async (s) => {
    await s.storage.set(s.k("race-swap"), "base");
    await race(s, s.k("race-swap"), "base");
  });
}

function values(test: Register): void {
  test("round-trips a 1 MiB value, swaps it, shrinks it and deletes it", async ({ storage, k, cas }) => {
    const big = bigValue();
    const bigger = bigValue(MiB + 1000, "second");
    await storage.set(k("big"), big);
    const got = await storage.get(k("big"));
    equal(got?.length, big.length, "length of the 1 MiB value read back");
    ok(got === big, "the 1 MiB value reads back unchanged");
    equal(await cas(k("big"), big, bigger), true, "swap from the 1 MiB value");
    ok((await storage.get(k("big"))) === bigger, "the bigger value reads back unchanged");
    equal(await cas(k("big"), big, "stale"), false, "swap from the replaced 1 MiB value");
    await storage.set(k("big"), "small");
    equal(await storage.get(k("big")), "small", "get after shrinking");
    equal(await cas(k("big"), "small", big), true, "swap from small back to 1 MiB");
    ok((await storage.get(k("big"))) === big, "the 1 MiB value reads back unchanged again");
    await storage.delete(k("big"));
    equal(await storage.get(k("big")), undefined, "get after deleting the big value");
  });

  test("round-trips unicode and tricky values", async ({ storage, k, cas }) => {
    for (const [i, value] of ODD_VALUES.entries()) await storage.set(k(`v${i}`), value);
    for (const [i, value] of ODD_VALUES.entries()) equal(await storage.get(k(`v${i}`)), value, `value #${i}`);
    equal(await cas(k("v0"), ODD_VALUES[0], ODD_VALUES[1]!), true, "swap between unicode values");
    equal(await storage.get(k("v0")), ODD_VALUES[1], "get after the swap");
  });

  test("keeps odd keys (empty, dots, slashes, unicode, NUL, very long) apart", async ({ storage, cas }) => {
    for (const key of ODD_KEYS) await storage.delete(key); // keys are literal here: clear earlier runs
    for (const [i, key] of ODD_KEYS.entries()) await storage.set(key, `value ${i}`);
    for (const [i, key] of ODD_KEYS.entries()) equal(await storage.get(key), `value ${i}`, `odd key #${i}`);
    const long = ODD_KEYS[15]!;
    equal(await cas(long, "value 15", "swapped"), true, "swap on a 4000-character key");
    equal(await storage.get(long), "swapped", "get of the long key after the swap");
    equal(await storage.get(ODD_KEYS[16]!), "value 16", "a long key differing only in its last character");
    for (const key of ODD_KEYS) await storage.delete(key);
    for (const [i, key] of ODD_KEYS.entries()) equal(await storage.get(key), undefined, `odd key #${i} after delete`);
  });
}

function ttl(test: Register, mode: "clock" | "wait" | "accept"): void {
  if (mode === "accept") {
    test("accepts short and long TTLs and keeps the value readable before they pass", async ({ storage, k, cas }) => {
      await storage.set(k("t1"), "short", { ttlSeconds: 1 });
      equal(await storage.get(k("t1")), "short", "get right after a 1 s set");
      equal(await cas(k("t2"), undefined, "cas", 0.5), true, "create with a 0.5 s ttl");
      equal(await storage.get(k("t2")), "cas", "get right after the create");
      await storage.set(k("t3"), "day", { ttlSeconds: 86_400 });
      equal(await storage.get(k("t3")), "day", "get of a value kept for a day");
    });
    return;
  }
  const clock = mode === "clock";
  test(
    clock ? "expires values when the clock passes their TTL" : "expires values after their TTL (waits 1.3 s)",
    async ({ storage, k, cas, advance }) => {
      const seconds = clock ? 10 : 1;
      await storage.set(k("t-set"), "a", { ttlSeconds: seconds });
      equal(await cas(k("t-cas"), undefined, "b", seconds), true, "create with a ttl");
      await storage.set(k("t-cleared"), "c", { ttlSeconds: seconds });
      await storage.set(k("t-cleared"), "c2"); // a set without ttl keeps the value for good
      await storage.set(k("t-long"), "d", { ttlSeconds: 600 });
      if (clock) {
        advance(9_000);
        equal(await storage.get(k("t-set")), "a", "get 9 s into a 10 s ttl");
        equal(await storage.get(k("t-cas")), "b", "get of the created value 9 s into its 10 s ttl");
        advance(2_000);
      } else {
        await sleep(1_300);
      }
      equal(await storage.get(k("t-set")), undefined, "get after the ttl passed");
      equal(await storage.get(k("t-cas")), undefined, "get of the created value after its ttl passed");
      equal(await cas(k("t-set"), "a", "stale"), false, "swap from an expired value");
      equal(await cas(k("t-set"), undefined, "fresh"), true, "create over an expired value");
      equal(await storage.get(k("t-set")), "fresh", "get after the create");
      equal(await storage.get(k("t-cleared")), "c2", "a value set again without ttl");
      equal(await storage.get(k("t-long")), "d", "a value with a 600 s ttl");
    },
  );
}

function resumes(test: Register, atomic: boolean, n: number): void {
  const title = atomic
    ? `${n} concurrent resumes of one suspension run the tool once; the rest get RunConflictError`
    : `${n} concurrent resumes of one suspension never crash (best effort: not atomic)`;
  test(title, async ({ storage }) => {
    const outcome = await raceResumes(storage, n);
    if (atomic) {
      equal(
        { executions: outcome.executions, fulfilled: outcome.fulfilled },
        { executions: 1, fulfilled: 1 },
        "tool executions and successful resumes",
      );
      equal(
        outcome.rejected.filter((code) => code !== "run_conflict"),
        [],
        "rejections other than run_conflict",
      );
      equal((JSON.parse(outcome.stored!) as { status?: string }).status, "done", "the stored run's status");
    } else {
      ok(
        outcome.executions >= 1 && outcome.fulfilled >= 1,
        `the tool ran (${outcome.executions}) and a resume succeeded (${outcome.fulfilled})`,
      );
      equal(
        outcome.rejected.filter((code) => code !== "storage" && code !== "run_conflict"),
        [],
        "rejections other than storage/run_conflict",
      );
    }
  });
}
