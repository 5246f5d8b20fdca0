// How long a halted run is kept: pendingTtlSeconds defaults to 7 days, 0 keeps it for ever, and a request's
// expiresAt later than that keeps it until then — what a TTL-capable storage is asked to do with the halt.
import { ConfigError, createClient, defineTool, memoryStorage, pending, type RunStorage } from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../../support/results";
import { scripted } from "../../support/scripted";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;
const DAY = 86_400;

/** A memoryStorage that notes the ttl of every write of a run record. */
function ttlStorage(): { storage: RunStorage; ttls: (number | undefined)[] } {
  const inner = memoryStorage();
  const ttls: (number | undefined)[] = [];
  const note = (key: string, ttl: number | undefined) => key.startsWith("run:") && ttls.push(ttl);
  const storage: RunStorage = {
    capabilities: inner.capabilities,
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
    set: (key, value, opts) => (note(key, opts?.ttlSeconds), inner.set(key, value, opts)),
    compareAndSet: (key, e, value, opts) => (note(key, opts?.ttlSeconds), inner.compareAndSet!(key, e, value, opts)),
  };
  return { storage, ttls };
}

/** Halts one run on a request that expires at `expiresAt` (if given); resolves the ttls its halt was written with. */
async function halt(options: { pendingTtlSeconds?: number }, expiresAt?: string) {
  const { storage, ttls } = ttlStorage();
  const ask = defineTool({
    name: "ask",
    description: "asks",
    execute: async () =>
      pending({ kind: "input", id: "q", prompt: "Which city?", ...(expiresAt ? { expiresAt } : {}) }),
  });
  const s = scripted("openai", [{ calls: [{ name: "ask" }] }]);
  const client = createClient({ ...base, ...options, fetch: s.fetch, storage });
  const halted = asPending(await client.run("x", { toolkit: [ask] }));
  expect((await client.inspect(halted.runId))?.status).toBe("pending");
  return ttls;
}

describe("pendingTtlSeconds", () => {
  it("keeps a halted run 7 days by default, or as long as it says", async () => {
    expect(await halt({})).toEqual([7 * DAY]);
    expect(await halt({ pendingTtlSeconds: 60 })).toEqual([60]);
  });

  it("0 keeps it for ever: the halt is written without a ttl", async () => {
    expect(await halt({ pendingTtlSeconds: 0 })).toEqual([undefined]);
  });

  it("a request with a deadline: the TTL counts from the deadline, so its expiry always has its chance", async () => {
    const in30Days = new Date(Date.now() + 30 * DAY * 1000).toISOString();
    const [ttl] = await halt({}, in30Days);
    expect(ttl).toBeGreaterThanOrEqual(37 * DAY - 5);
    expect(ttl).toBeLessThanOrEqual(37 * DAY + 1);
  });

  it("a negative or non-numeric value is a ConfigError from createClient", () => {
    for (const bad of [-1, Number.NaN, "7d"])
      expect(() => createClient({ ...base, pendingTtlSeconds: bad as number })).toThrow(ConfigError);
  });
});
