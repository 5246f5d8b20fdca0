// durableObjectStorage in workerd, both forms: { storage } inside a Durable Object (its real ctx.storage),
// and { namespace } from a Worker through RunStoreObject (binding RUN_STORE from wrangler.toml).
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { durableObjectStorage, type RunStorage } from "toolnexus";
import { bigValue, storageContract } from "../support/storage-contract";

const stubFor = (name: string) => env.RUN_STORE.get(env.RUN_STORE.idFromName(name));

/** Every operation runs inside the object, on a fresh adapter over its ctx.storage (as a request handler would). */
async function insideObject(name: string, now?: () => number): Promise<RunStorage> {
  const stub = stubFor(name);
  const run = <T>(fn: (s: RunStorage) => Promise<T>): Promise<T> =>
    runInDurableObject(stub, (_object, state) =>
      fn(durableObjectStorage({ storage: state.storage, prefix: "mine/", now })),
    );
  return {
    capabilities: await run(async (s) => s.capabilities),
    get: (key) => run((s) => s.get(key)),
    set: (key, value, opts) => run((s) => s.set(key, value, opts)),
    delete: (key) => run((s) => s.delete(key)),
    compareAndSet: (key, expected, value, opts) => run((s) => s.compareAndSet!(key, expected, value, opts)),
  };
}

async function entries(name: string): Promise<Map<string, unknown>> {
  return runInDurableObject(stubFor(name), (_object, state) => state.storage.list());
}

storageContract(
  "durableObjectStorage({ storage }) inside a Durable Object",
  ({ now }) => insideObject(`local-${crypto.randomUUID()}`, now),
  { atomic: true, ttl: "clock" },
);
storageContract(
  "durableObjectStorage({ namespace }) through RunStoreObject",
  () => durableObjectStorage({ namespace: env.RUN_STORE, name: `remote-${crypto.randomUUID()}` }),
  { atomic: true, ttl: "wait" },
);

describe("durableObjectStorage", () => {
  it("splits a 1 MiB value into entries under 128 KiB and leaves no chunk behind when it shrinks", async () => {
    const name = `chunks-${crypto.randomUUID()}`;
    const storage = durableObjectStorage({ namespace: env.RUN_STORE, name });
    await storage.set("run:big", bigValue());
    const stored = await entries(name);
    const chunks = [...stored.keys()].filter((k) => k.startsWith("#c:"));
    expect(chunks.length).toBeGreaterThan(8);
    for (const value of stored.values()) expect(JSON.stringify(value).length).toBeLessThan(70_000);
    await storage.set("run:big", "small");
    expect([...(await entries(name)).keys()]).toEqual(["run:big"]);
  });

  it("keeps the { storage } form's entries under its prefix", async () => {
    const name = `prefix-${crypto.randomUUID()}`;
    const storage = await insideObject(name);
    await storage.set("run:1", "v");
    await storage.set("run:2", bigValue(100_000));
    const keys = [...(await entries(name)).keys()];
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) expect(key.startsWith("mine/")).toBe(true);
  });

  it("RunStoreObject deletes expired records, chunks included, with its alarm", async () => {
    const name = `alarm-${crypto.randomUUID()}`;
    const storage = durableObjectStorage({ namespace: env.RUN_STORE, name });
    await storage.set("run:short", "v", { ttlSeconds: 0.2 });
    await storage.set("run:big", bigValue(200_000), { ttlSeconds: 0.2 });
    await storage.set("run:kept", "v", { ttlSeconds: 600 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await runDurableObjectAlarm(stubFor(name))).toBe(true);
    const keys = [...(await entries(name)).keys()];
    expect(keys.filter((k) => !k.startsWith("#e:"))).toEqual(["run:kept"]);
    expect(keys.filter((k) => k.startsWith("#e:"))).toHaveLength(1); // the kept record's expiry, still due
    const alarm = await runInDurableObject(stubFor(name), (_object, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + 500_000);
  });

  it("shards keys over objects when name is a function of the key", async () => {
    const tag = crypto.randomUUID();
    const storage = durableObjectStorage({ namespace: env.RUN_STORE, name: (key) => `${tag}:${key}` });
    await storage.set("a", "1");
    await storage.set("b", "2");
    expect(await storage.get("a")).toBe("1");
    expect([...(await entries(`${tag}:a`)).keys()]).toEqual(["a"]);
    expect([...(await entries(`${tag}:b`)).keys()]).toEqual(["b"]);
  });

  it("RunStoreObject answers a malformed request with 400 and changes nothing", async () => {
    const name = `bad-${crypto.randomUUID()}`;
    const post = (body: string) => stubFor(name).fetch("https://run-store/", { method: "POST", body });
    expect((await post("not json")).status).toBe(400);
    expect((await post('{"op":"explode","key":"k"}')).status).toBe(400);
    const res = await post('{"op":"set","key":"k","value":42}');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("must be a string");
    expect((await entries(name)).size).toBe(0);
  });

  it("needs { storage } or { namespace }", () => {
    expect(() => durableObjectStorage({})).toThrow("RunStoreObject");
  });
});
