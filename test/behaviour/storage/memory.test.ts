// memoryStorage passes the storage contract suite (support/storage-contract.ts) in every runtime (Node, Chromium, workerd, Deno).
import { describe, expect, it } from "vitest";
import { memoryStorage } from "toolnexus";
import { storageContract } from "../../support/storage-contract";

storageContract("memoryStorage", ({ now }) => memoryStorage({ now }), { atomic: true, ttl: "clock" });

describe("memoryStorage", () => {
  it("is private to the object: two storages never share keys", async () => {
    const a = memoryStorage();
    const b = memoryStorage();
    await a.set("run:1", "a");
    expect(await b.get("run:1")).toBeUndefined();
  });

  it("expires with the real clock by default", async () => {
    const storage = memoryStorage();
    await storage.set("soon", "v", { ttlSeconds: 0.05 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await storage.get("soon")).toBeUndefined();
  });

  it("sweeps expired entries at a constant cost per write, however many entries it holds", async () => {
    let clock = 1_000;
    let reads = 0;
    const storage = memoryStorage({ now: () => (reads++, clock) });
    const n = 4096;
    for (let i = 0; i < n; i++) await storage.set(`k${i}`, "v", { ttlSeconds: 60 });
    reads = 0;
    clock += 120_000; // every entry has expired; nobody reads them
    for (let i = 0; i < n; i++) await storage.set(`fresh${i}`, "v", { ttlSeconds: 60 });
    // one clock read per write for its own expiry, plus one per sweep — never one per entry per sweep
    expect(reads).toBeLessThan(n + 64);
    expect(await storage.get("k0")).toBeUndefined();
    expect(await storage.get(`fresh${n - 1}`)).toBe("v");
  });
});
