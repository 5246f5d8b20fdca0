// memoryStorage keeps the shared storage contract in every runtime (Node, Chromium, workerd, Deno).
import { describe, expect, it } from "vitest";
import { memoryStorage } from "toolnexus";
import { storageContract } from "./support/storage-contract";

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
});
