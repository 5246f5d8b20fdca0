// How long createRunHandler keeps what it writes of a run (its event log and owner stamp, the `edge:` keys):
// by default as long as the client keeps its halted runs (its pendingTtlSeconds), an explicit ttlSeconds
// winning, and 0 keeping them for ever.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  createInProcessClient,
  createRunHandler,
  memoryStorage,
  pending,
  defineTool,
  type Client,
  type RunStorage,
} from "toolnexus";
import { doneOf, framesOf } from "../../support/edge";

/** Memory storage that remembers the ttlSeconds of each key's latest write (undefined: none given). */
function ttlStorage(): RunStorage & { ttls: Map<string, number | undefined> } {
  const inner = memoryStorage();
  const ttls = new Map<string, number | undefined>();
  const noted = (key: string, opts?: { ttlSeconds?: number }) => ttls.set(key, opts?.ttlSeconds);
  return {
    get: (key) => inner.get(key),
    set: (key, value, opts) => (noted(key, opts), inner.set(key, value, opts)),
    delete: (key) => inner.delete(key),
    compareAndSet: async (key, expected, value, opts) => {
      const swapped = await inner.compareAndSet!(key, expected, value, opts);
      if (swapped) noted(key, opts);
      return swapped;
    },
    capabilities: inner.capabilities,
    ttls,
  };
}

const askCity = defineTool({
  name: "ask_city",
  description: "asks which city",
  execute: (_args, ctx) => (ctx.answer ? "ok" : pending({ kind: "question", prompt: "Which city?" })),
});

function clientWith(storage: RunStorage, pendingTtlSeconds?: number): Client {
  return createInProcessClient({
    model: "m",
    storage,
    ...(pendingTtlSeconds === undefined ? {} : { pendingTtlSeconds }),
    generate: () => ({ toolCalls: [{ id: "call_1", name: "ask_city", arguments: {} }] }),
  });
}

/** A run halted through the handler: the TTLs its `edge:` keys and its record were written with. */
async function halt(storage: ReturnType<typeof ttlStorage>, client: Client, ttlSeconds?: number) {
  const handler = createRunHandler({ client, toolkit: [askCity], ...(ttlSeconds === undefined ? {} : { ttlSeconds }) });
  const res = await handler(
    new Request("http://edge.test/api/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "which city?" }),
    }),
  );
  const halted = doneOf(await framesOf(res));
  expect(halted.status).toBe("pending");
  const edge = [...storage.ttls].filter(([key]) => key.startsWith(`edge:${halted.runId}`));
  expect(edge.length).toBeGreaterThan(1); // the head and at least one batch of events
  return { edge: [...new Set(edge.map(([, ttl]) => ttl))], record: storage.ttls.get(`run:${halted.runId}`) };
}

describe("createRunHandler ttlSeconds", () => {
  it("defaults to the client's pendingTtlSeconds: the event log lives as long as the halted run", async () => {
    const storage = ttlStorage();
    expect(await halt(storage, clientWith(storage, 3600))).toEqual({ edge: [3600], record: 3600 });
  });

  it("defaults to 604800 (7 days) for a client that keeps the default, or one without pendingTtlSeconds", async () => {
    const storage = ttlStorage();
    expect(await halt(storage, clientWith(storage))).toEqual({ edge: [604_800], record: 604_800 });
    const other = ttlStorage();
    const bare = { ...clientWith(other, 3600), pendingTtlSeconds: undefined } as unknown as Client; // made by hand
    expect((await halt(other, bare)).edge).toEqual([604_800]);
  });

  it("reads the client's pendingTtlSeconds, a read-only field a wrapper carries along", async () => {
    const storage = ttlStorage();
    const client = clientWith(storage, 3600);
    expect(client.pendingTtlSeconds).toBe(3600);
    const wrapped: Client = { ...client };
    expect((await halt(storage, wrapped)).edge).toEqual([3600]);
  });

  it("an explicit ttlSeconds wins over the client's", async () => {
    const storage = ttlStorage();
    expect(await halt(storage, clientWith(storage, 3600), 120)).toEqual({ edge: [120], record: 3600 });
  });

  it("0 keeps the event log for ever — explicit, or the client's own 0", async () => {
    const storage = ttlStorage();
    expect(await halt(storage, clientWith(storage, 3600), 0)).toEqual({ edge: [undefined], record: 3600 });
    const never = ttlStorage();
    expect(await halt(never, clientWith(never, 0))).toEqual({ edge: [undefined], record: undefined });
  });

  it("a client's fractional pendingTtlSeconds is rounded up to whole seconds", async () => {
    const storage = ttlStorage();
    expect(await halt(storage, clientWith(storage, 90.5))).toEqual({ edge: [91], record: 90.5 });
  });

  it("an explicit ttlSeconds is checked as before: a whole number ≥ 0", () => {
    const client = clientWith(memoryStorage(), 3600);
    for (const ttlSeconds of [-1, 1.5, Number.NaN, "60" as never]) {
      expect(() => createRunHandler({ client, ttlSeconds })).toThrow(ConfigError);
      expect(() => createRunHandler({ client, ttlSeconds })).toThrow(
        /createRunHandler ttlSeconds must be a whole number/,
      );
    }
  });
});
