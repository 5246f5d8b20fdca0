// webStorage in real Chromium: the storage contract suite (test/support/storage-contract.ts) over localStorage and sessionStorage, a full storage,
// and compare-and-set claims raced from two same-origin frames through Web Locks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webStorage, type LockManagerLike, type WebStorageLike } from "toolnexus";
import { storageContract } from "../support/storage-contract";

storageContract("webStorage(localStorage)", ({ now }) => webStorage({ now }), { atomic: true, ttl: "clock" });
storageContract(
  "webStorage(sessionStorage)",
  ({ now }) => webStorage({ storage: sessionStorage, prefix: "tn-session:", now }),
  { atomic: true, ttl: "clock" },
);

describe("webStorage", () => {
  it("defaults to localStorage under the toolnexus: prefix, and leaves other keys alone", async () => {
    const key = `default-${crypto.randomUUID()}`;
    localStorage.setItem(key, "not ours");
    await webStorage().set(key, "ours");
    expect(await webStorage({ storage: localStorage, prefix: "toolnexus:" }).get(key)).toBe("ours");
    expect(await webStorage({ prefix: "other:" }).get(key)).toBeUndefined();
    expect(localStorage.getItem(key)).toBe("not ours");
    await webStorage().delete(key);
    expect(localStorage.getItem(key)).toBe("not ours");
    localStorage.removeItem(key);
  });

  it("reads a value someone else stored under the prefix as it is", async () => {
    const key = `foreign-${crypto.randomUUID()}`;
    localStorage.setItem(`toolnexus:${key}`, "written by hand");
    expect(await webStorage().get(key)).toBe("written by hand");
    localStorage.removeItem(`toolnexus:${key}`);
  });

  it("sweeps its expired entries nobody reads again on its first write, and only those", async () => {
    let now = Date.now();
    const prefix = `tn-sweep-${crypto.randomUUID()}:`;
    const earlier = webStorage({ prefix, now: () => now });
    await earlier.set("old", "v", { ttlSeconds: 1 });
    await earlier.set("kept", "v");
    await earlier.set("later", "v", { ttlSeconds: 60 });
    localStorage.setItem(`other-${prefix}`, "1|looks expired but is not ours");
    now += 5_000;
    await webStorage({ prefix, now: () => now }).set("new", "v");
    expect(localStorage.getItem(`${prefix}old`)).toBeNull();
    for (const key of ["kept", "later", "new"]) expect(localStorage.getItem(`${prefix}${key}`)).not.toBeNull();
    expect(localStorage.getItem(`other-${prefix}`)).toBe("1|looks expired but is not ours");
    for (const key of ["kept", "later", "new"]) localStorage.removeItem(`${prefix}${key}`);
    localStorage.removeItem(`other-${prefix}`);
  });

  it("is atomic only where Web Locks exist", () => {
    const locks: LockManagerLike = navigator.locks; // the real LockManager fits the structural type
    expect(locks).toBeDefined();
    expect(webStorage().capabilities.atomic).toBe(true);
    expect(webStorage({ locks: null }).capabilities).toEqual({ atomic: false, ttl: true });
  });

  it("rejects a write that does not fit (QuotaExceededError) and keeps the old value", async () => {
    const storage = webStorage({ storage: sessionStorage, prefix: "tn-quota:" });
    await storage.set("k", "before");
    const huge = "x".repeat(12 * 1024 * 1024);
    const error = await storage.set("k", huge).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("QuotaExceededError");
    await expect(storage.compareAndSet!("k", "before", huge)).rejects.toBeInstanceOf(DOMException);
    expect(await storage.get("k")).toBe("before");
    await storage.delete("k");
  });

  it("needs a Storage where none is given and none exists", () => {
    const saved = Object.getOwnPropertyDescriptor(window, "localStorage")!;
    Object.defineProperty(window, "localStorage", { configurable: true, get: () => undefined });
    try {
      expect(() => webStorage()).toThrow("no localStorage");
    } finally {
      Object.defineProperty(window, "localStorage", saved);
    }
  });
});

describe("webStorage across two same-origin frames", () => {
  const frames: HTMLIFrameElement[] = [];
  const realm = (i: number) =>
    frames[i]!.contentWindow as unknown as { localStorage: WebStorageLike; navigator: { locks: LockManagerLike } };
  const inFrame = (i: number) =>
    webStorage({ storage: realm(i).localStorage, locks: realm(i).navigator.locks, prefix: "tn-frames:" });

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const frame = document.createElement("iframe");
      const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
      frame.srcdoc = "<!doctype html><title>frame</title>";
      document.body.append(frame);
      await loaded;
      frames.push(frame);
    }
  });
  afterAll(() => frames.forEach((f) => f.remove()));

  it("lets exactly one of 50 claims raced from both frames win, and both frames see it", async () => {
    const key = `race-${crypto.randomUUID()}`;
    const a = inFrame(0);
    const b = inFrame(1);
    await a.set(key, "pending");
    const writers = Array.from({ length: 50 }, (_, i) => `claim-${i}`);
    const won = await Promise.all(writers.map((w, i) => (i % 2 ? b : a).compareAndSet!(key, "pending", w)));
    const winners = writers.filter((_, i) => won[i]);
    expect(winners).toHaveLength(1);
    expect(await a.get(key)).toBe(winners[0]);
    expect(await b.get(key)).toBe(winners[0]);
    await a.delete(key);
  });

  it("waits for the Web Lock another frame holds on the key before it compares", async () => {
    const key = `lock-${crypto.randomUUID()}`;
    const a = inFrame(0);
    await a.set(key, "pending");
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = realm(1).navigator.locks.request(`toolnexus:tn-frames:${key}`, () => {
      holding();
      return released;
    });
    await held;
    let settled = false;
    const claim = a.compareAndSet!(key, "pending", "claimed-by-a").finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    // the lock holder claims the record first, then lets go
    await inFrame(1).set(key, "claimed-by-holder");
    release();
    await holder;
    expect(await claim).toBe(false);
    expect(await a.get(key)).toBe("claimed-by-holder");
    await a.delete(key);
  });
});
