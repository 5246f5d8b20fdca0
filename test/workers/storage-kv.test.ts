// kvStorage against a real Workers KV namespace (workerd, binding RUNS from wrangler.toml).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { kvStorage } from "toolnexus";
import { storageContract } from "../support/storage-contract";

// KV has no conditional write: compareAndSet is best effort, and storageContract checks only that much
storageContract("kvStorage (Workers KV)", () => kvStorage({ binding: env.RUNS }), { atomic: false, ttl: "accept" });
storageContract("kvStorage with a prefix", () => kvStorage({ binding: env.RUNS, prefix: "tn/" }), {
  atomic: false,
  ttl: "accept",
});

async function expirations(prefix: string): Promise<Record<string, number | undefined>> {
  const { keys } = await env.RUNS.list({ prefix });
  return Object.fromEntries(keys.map((k) => [k.name.slice(prefix.length), k.expiration]));
}

describe("kvStorage", () => {
  it("raises a TTL under KV's 60-second minimum to 60 s and asks KV to expire the key", async () => {
    const prefix = `ttl-${crypto.randomUUID()}/`;
    const storage = kvStorage({ binding: env.RUNS, prefix });
    const before = Math.floor(Date.now() / 1000);
    await storage.set("short", "v", { ttlSeconds: 1 });
    await storage.set("long", "v", { ttlSeconds: 3600.2 });
    expect(await storage.compareAndSet!("claimed", undefined, "v", { ttlSeconds: 0.5 })).toBe(true);
    await storage.set("forever", "v");
    const after = Math.ceil(Date.now() / 1000);
    const exp = await expirations(prefix);
    for (const [key, ttl] of [
      ["short", 60],
      ["claimed", 60],
      ["long", 3601],
    ] as const) {
      expect({ key, atLeast: exp[key]! >= before + ttl, atMost: exp[key]! <= after + ttl }).toEqual({
        key,
        atLeast: true,
        atMost: true,
      });
    }
    expect(exp.forever).toBeUndefined();
  });

  it("a set without ttl clears an earlier expiry", async () => {
    const prefix = `ttl-${crypto.randomUUID()}/`;
    const storage = kvStorage({ binding: env.RUNS, prefix });
    await storage.set("k", "v", { ttlSeconds: 120 });
    await storage.set("k", "v2");
    expect(await expirations(prefix)).toEqual({ k: undefined });
  });

  it("stores a key KV can hold verbatim under the prefix, so other tools can read it", async () => {
    const storage = kvStorage({ binding: env.RUNS, prefix: "plain/" });
    await storage.set("run:abc", "record");
    expect(await env.RUNS.get("plain/run:abc")).toBe("record");
  });

  it("hashes keys KV refuses (empty, dots, over 512 bytes) into distinct keys it accepts", async () => {
    const prefix = `odd-${crypto.randomUUID()}/`;
    const storage = kvStorage({ binding: env.RUNS });
    const keys = ["", ".", "..", "ü".repeat(300)];
    // no prefix: the first three are exactly what KV rejects
    await expect(env.RUNS.put("", "x")).rejects.toThrow();
    for (const [i, key] of keys.entries()) await storage.set(key, `${prefix}${i}`);
    for (const [i, key] of keys.entries()) expect(await storage.get(key)).toBe(`${prefix}${i}`);
    const { keys: stored } = await env.RUNS.list({ prefix: "#h:" });
    expect(stored.length).toBeGreaterThanOrEqual(keys.length);
    for (const key of keys) await storage.delete(key);
    for (const key of keys) expect(await storage.get(key)).toBeUndefined();
  });

  it("refuses a missing binding or a prefix that leaves no room for keys", () => {
    expect(() => kvStorage({} as never)).toThrow("binding");
    expect(() => kvStorage({ binding: env.RUNS, prefix: "p".repeat(480) })).toThrow("prefix");
  });
});
