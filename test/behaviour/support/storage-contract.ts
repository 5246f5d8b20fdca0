// The contract every RunStorage adapter must keep, run by each adapter's test in its real runtime:
// `storageContract("memoryStorage", ({ now }) => memoryStorage({ now }), { atomic: true, ttl: "clock" })`.
import { beforeEach, describe, expect, it } from "vitest";
import type { RunStorage } from "toolnexus";

export interface ContractEnv {
  /** A fake clock (ms since the epoch) the suite moves forward in "clock" mode; pass it to the adapter. */
  now: () => number;
}

export interface ContractOptions {
  /** The expected `capabilities.atomic`; racing writers must then have exactly one winner. */
  atomic: boolean;
  /**
   * How expiry is checked: "clock" — the adapter uses `env.now` and the suite advances it; "wait" — real
   * expiry, one wait of 1.3 s; "accept" — the store cannot expire that fast (Workers KV's 60 s minimum),
   * so only check that short TTLs are accepted and the value stays readable.
   */
  ttl: "clock" | "wait" | "accept";
  /** How many writers race one key (default 50). */
  racers?: number;
}

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ~1 MiB of mixed text whose surrogate pairs straddle the usual chunk boundaries (30000, 2^15, 2^16). */
export function bigValue(size = MiB, salt = ""): string {
  const pattern = `toolnexus ✓ 日本語 🚀 {"k":[1,2,"\\u0000"]} \\ \n${salt}`;
  let text = `${"a".repeat(29_999)}🚀${"b".repeat(32_767 - 30_001)}🌍${"c".repeat(65_535 - 32_769)}👩‍👧`;
  text += pattern.repeat(Math.ceil((size - text.length) / pattern.length));
  text = text.slice(0, size);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? `${text.slice(0, -1)}!` : text;
}

export const ODD_KEYS: readonly string[] = [
  "",
  " ",
  ".",
  "..",
  "/",
  "a/b/c",
  "../../etc/passwd",
  "ключ 🔑 鍵",
  "\u0000",
  "with\nnewline\tand tab",
  "#reserved",
  `#h:${"0".repeat(64)}`,
  "%2F?&=#frag",
  "__proto__",
  "constructor",
  "x".repeat(4000),
  `${"x".repeat(3999)}y`,
  "é".repeat(2000),
];

export const ODD_VALUES: readonly string[] = [
  "héllo wörld",
  "日本語テキスト",
  "🚀🌍 👩‍👩‍👧 family",
  "\u0000nul\u0000",
  "line\nbreak\r\n\ttab",
  '"quotes" and \\backslashes\\',
  '{"json":true,"n":[1,2]}',
  "|1234|piped",
  "1234:colon",
  "#h:not-a-hash",
  " ",
];

export function storageContract(
  name: string,
  makeStorage: (env: ContractEnv) => RunStorage | Promise<RunStorage>,
  opts: ContractOptions,
): void {
  describe(`storage contract: ${name}`, () => {
    let storage: RunStorage;
    let offset = 0;
    let tag = "";
    const advance = (ms: number) => void (offset += ms);
    const k = (suffix: string) => `${tag}/${suffix}`;
    const cas = (key: string, expected: string | undefined, value: string, ttlSeconds?: number) => {
      expect(storage.compareAndSet).toBeTypeOf("function");
      return storage.compareAndSet!(key, expected, value, ttlSeconds === undefined ? undefined : { ttlSeconds });
    };

    beforeEach(async () => {
      const base = Date.now();
      offset = 0;
      tag = `contract-${crypto.randomUUID()}`;
      storage = await makeStorage({ now: () => base + offset });
    });

    it("declares its capabilities", () => {
      expect(storage.capabilities).toEqual({ atomic: opts.atomic, ttl: true });
    });

    it("reads undefined for a key never written", async () => {
      expect(await storage.get(k("never"))).toBeUndefined();
    });

    it("round-trips a value and overwrites it", async () => {
      await storage.set(k("a"), "first");
      expect(await storage.get(k("a"))).toBe("first");
      await storage.set(k("a"), "second");
      expect(await storage.get(k("a"))).toBe("second");
    });

    it("deletes a key, and deleting a missing key is fine", async () => {
      await storage.set(k("a"), "v");
      await storage.set(k("b"), "kept");
      await storage.delete(k("a"));
      expect(await storage.get(k("a"))).toBeUndefined();
      expect(await storage.get(k("b"))).toBe("kept");
      await expect(storage.delete(k("a"))).resolves.toBeUndefined();
      await expect(storage.delete(k("never"))).resolves.toBeUndefined();
    });

    it("keeps the empty string distinct from absent", async () => {
      await storage.set(k("e"), "");
      expect(await storage.get(k("e"))).toBe("");
      expect(await cas(k("e"), undefined, "x")).toBe(false);
      expect(await cas(k("e"), "", "x")).toBe(true);
      expect(await storage.get(k("e"))).toBe("x");
    });

    it("rejects a non-string value and a non-positive ttl, changing nothing", async () => {
      await expect(storage.set(k("bad"), 42 as unknown as string)).rejects.toThrow("must be a string");
      await expect(storage.set(k("bad"), "v", { ttlSeconds: 0 })).rejects.toThrow("ttlSeconds");
      await expect(storage.set(k("bad"), "v", { ttlSeconds: Number.NaN })).rejects.toThrow("ttlSeconds");
      expect(await storage.get(k("bad"))).toBeUndefined();
    });

    describe("compareAndSet", () => {
      it("creates only if absent", async () => {
        expect(await cas(k("c"), undefined, "a")).toBe(true);
        expect(await storage.get(k("c"))).toBe("a");
        expect(await cas(k("c"), undefined, "b")).toBe(false);
        expect(await storage.get(k("c"))).toBe("a");
      });

      it("swaps only when the current value is the expected one", async () => {
        await storage.set(k("c"), "a");
        expect(await cas(k("c"), "a", "b")).toBe(true);
        expect(await cas(k("c"), "a", "c")).toBe(false);
        expect(await storage.get(k("c"))).toBe("b");
        expect(await cas(k("absent"), "x", "y")).toBe(false);
        expect(await storage.get(k("absent"))).toBeUndefined();
      });

      it("sees a deleted key as absent", async () => {
        await storage.set(k("c"), "a");
        await storage.delete(k("c"));
        expect(await cas(k("c"), "a", "z")).toBe(false);
        expect(await cas(k("c"), undefined, "z")).toBe(true);
        expect(await storage.get(k("c"))).toBe("z");
      });

      const racers = opts.racers ?? 50;
      const race = async (key: string, expected: string | undefined) => {
        const writers = Array.from({ length: racers }, (_, i) => `writer-${i}`);
        const won = await Promise.all(writers.map((w) => cas(key, expected, w)));
        const winners = writers.filter((_, i) => won[i]);
        const final = await storage.get(key);
        if (opts.atomic) {
          expect(winners).toHaveLength(1);
          expect(final).toBe(winners[0]);
        } else {
          // best effort (documented): at least one writer believes it won and the value is a writer's
          expect(winners.length).toBeGreaterThanOrEqual(1);
          expect(writers).toContain(final);
        }
      };

      it(`lets exactly one of ${racers} racing creators win${opts.atomic ? "" : " (best effort: not atomic)"}`, async () => {
        await race(k("race-create"), undefined);
      }, 20_000);

      it(`lets exactly one of ${racers} racing swappers win${opts.atomic ? "" : " (best effort: not atomic)"}`, async () => {
        await storage.set(k("race-swap"), "base");
        await race(k("race-swap"), "base");
      }, 20_000);
    });

    it("round-trips a 1 MiB value, swaps it, shrinks it and deletes it", async () => {
      const big = bigValue();
      const bigger = bigValue(MiB + 1000, "second");
      await storage.set(k("big"), big);
      const got = await storage.get(k("big"));
      expect(got?.length).toBe(big.length);
      expect(got === big).toBe(true);
      expect(await cas(k("big"), big, bigger)).toBe(true);
      expect((await storage.get(k("big"))) === bigger).toBe(true);
      expect(await cas(k("big"), big, "stale")).toBe(false);
      await storage.set(k("big"), "small");
      expect(await storage.get(k("big"))).toBe("small");
      expect(await cas(k("big"), "small", big)).toBe(true);
      expect((await storage.get(k("big"))) === big).toBe(true);
      await storage.delete(k("big"));
      expect(await storage.get(k("big"))).toBeUndefined();
    }, 30_000);

    it("round-trips unicode and tricky values", async () => {
      for (const [i, value] of ODD_VALUES.entries()) await storage.set(k(`v${i}`), value);
      for (const [i, value] of ODD_VALUES.entries()) expect(await storage.get(k(`v${i}`))).toBe(value);
      expect(await cas(k("v0"), ODD_VALUES[0], ODD_VALUES[1]!)).toBe(true);
      expect(await storage.get(k("v0"))).toBe(ODD_VALUES[1]);
    });

    it("keeps odd keys (empty, dots, slashes, unicode, NUL, very long) apart", async () => {
      for (const key of ODD_KEYS) await storage.delete(key); // keys are literal here: clear earlier runs
      for (const [i, key] of ODD_KEYS.entries()) await storage.set(key, `value ${i}`);
      for (const [i, key] of ODD_KEYS.entries())
        expect({ i, value: await storage.get(key) }).toEqual({ i, value: `value ${i}` });
      const long = ODD_KEYS[15]!;
      expect(await cas(long, "value 15", "swapped")).toBe(true);
      expect(await storage.get(long)).toBe("swapped");
      expect(await storage.get(ODD_KEYS[16]!)).toBe("value 16");
      for (const key of ODD_KEYS) await storage.delete(key);
      for (const key of ODD_KEYS) expect(await storage.get(key)).toBeUndefined();
    }, 20_000);

    describe("ttl", () => {
      if (opts.ttl === "accept") {
        it("accepts short and long TTLs and keeps the value readable before they pass", async () => {
          await storage.set(k("t1"), "short", { ttlSeconds: 1 });
          expect(await storage.get(k("t1"))).toBe("short");
          expect(await cas(k("t2"), undefined, "cas", 0.5)).toBe(true);
          expect(await storage.get(k("t2"))).toBe("cas");
          await storage.set(k("t3"), "day", { ttlSeconds: 86_400 });
          expect(await storage.get(k("t3"))).toBe("day");
        });
        return;
      }
      const clock = opts.ttl === "clock";
      it(clock
        ? "expires values when the clock passes their TTL"
        : "expires values after their TTL (waits 1.3 s)", async () => {
        const ttl = clock ? 10 : 1;
        await storage.set(k("t-set"), "a", { ttlSeconds: ttl });
        expect(await cas(k("t-cas"), undefined, "b", ttl)).toBe(true);
        await storage.set(k("t-cleared"), "c", { ttlSeconds: ttl });
        await storage.set(k("t-cleared"), "c2"); // a set without ttl keeps the value for good
        await storage.set(k("t-long"), "d", { ttlSeconds: 600 });
        if (clock) {
          advance(9_000);
          expect(await storage.get(k("t-set"))).toBe("a");
          expect(await storage.get(k("t-cas"))).toBe("b");
          advance(2_000);
        } else {
          await sleep(1_300);
        }
        expect(await storage.get(k("t-set"))).toBeUndefined();
        expect(await storage.get(k("t-cas"))).toBeUndefined();
        expect(await cas(k("t-set"), "a", "stale")).toBe(false);
        expect(await cas(k("t-set"), undefined, "fresh")).toBe(true);
        expect(await storage.get(k("t-set"))).toBe("fresh");
        expect(await storage.get(k("t-cleared"))).toBe("c2");
        expect(await storage.get(k("t-long"))).toBe("d");
      }, 20_000);
    });
  });
}
