// denoKvStorage in real Deno, over Deno.openKv(":memory:"): the storage contract suite (test/support/storage-contract.ts), chunking under the 64 KiB
// value limit, and claims raced by two adapters over one database.
import { describe, expect, it } from "vitest";
import { denoKvStorage } from "toolnexus";
import { bigValue, storageContract } from "../support/storage-contract.ts";

const kv = await Deno.openKv(":memory:");

storageContract("denoKvStorage (Deno KV)", ({ now }) => denoKvStorage({ kv, now }), { atomic: true, ttl: "clock" });
storageContract("denoKvStorage with a custom prefix", ({ now }) => denoKvStorage({ kv, prefix: ["app", 1], now }), {
  atomic: true,
  ttl: "clock",
});

async function keysUnder(db: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of db.list({ prefix })) keys.push(entry.key);
  return keys;
}

describe("denoKvStorage", () => {
  it("splits a 1 MiB value into chunks Deno KV accepts, and deletes them when the value shrinks", async () => {
    const prefix = ["chunks", crypto.randomUUID()];
    const storage = denoKvStorage({ kv, prefix });
    await storage.set("run:big", bigValue());
    const keys = await keysUnder(kv, prefix);
    expect(keys.filter((k) => k[2] === "#c").length).toBeGreaterThan(30);
    await storage.set("run:big", "small");
    expect(await keysUnder(kv, prefix)).toEqual([[...prefix, "run:big"]]);
    await storage.delete("run:big");
    expect(await keysUnder(kv, prefix)).toEqual([]);
  });

  it("stores a key Deno KV can hold as [...prefix, key], and hashes one that is too long", async () => {
    const prefix = ["keys", crypto.randomUUID()];
    const storage = denoKvStorage({ kv, prefix });
    await storage.set("run:1", "v");
    expect((await kv.get([...prefix, "run:1"])).value).toMatchObject({ v: "v" });
    await storage.set("k".repeat(3000), "long");
    const hashed = (await keysUnder(kv, prefix)).filter((k) => k[2] === "#h");
    expect(hashed).toHaveLength(1);
    expect(await storage.get("k".repeat(3000))).toBe("long");
  });

  it("asks Deno KV to expire the entry too (expireIn), and hides it exactly at its expiry", async () => {
    let now = Date.now();
    const prefix = ["ttl", crypto.randomUUID()];
    const storage = denoKvStorage({ kv, prefix, now: () => now });
    await storage.set("k", "v", { ttlSeconds: 30 });
    now += 29_999;
    expect(await storage.get("k")).toBe("v");
    now += 1;
    expect(await storage.get("k")).toBeUndefined();
  });

  it("lets exactly one of 50 claims win when big and small values race through two adapters", async () => {
    const prefix = ["race", crypto.randomUUID()];
    const a = denoKvStorage({ kv, prefix });
    const b = denoKvStorage({ kv, prefix });
    await a.set("run:x", bigValue(70_000, "base"));
    const base = await b.get("run:x");
    const writers = Array.from({ length: 50 }, (_, i) => `claim-${i}-${"z".repeat(i % 2 ? 40_000 : 1)}`);
    const won = await Promise.all(writers.map((w, i) => (i % 2 ? b : a).compareAndSet!("run:x", base, w)));
    const winners = writers.filter((_, i) => won[i]);
    expect(winners).toHaveLength(1);
    expect(await a.get("run:x")).toBe(winners[0]);
    expect(await b.get("run:x")).toBe(winners[0]);
    // the losers' staged chunks and the replaced value's chunks are gone: only the winner's remain
    const generations = new Set((await keysUnder(kv, [...prefix, "#c"])).map((k) => k[3]));
    expect(generations.size).toBe(winners[0]!.length > 30_000 ? 1 : 0);
  }, 30_000);

  it("needs { kv }", () => {
    expect(() => denoKvStorage({} as never)).toThrow("Deno.openKv");
  });
});
