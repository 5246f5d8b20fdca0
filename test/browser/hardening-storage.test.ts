// Chromium only (docs/guide/reliability.md, "Storage faults"): a full localStorage (QuotaExceededError) while halting through webStorage, and
// one run resumed from two same-origin frames at once — each frame a separate realm with its own copy of
// the SDK (the bundle imported by URL), sharing localStorage and Web Locks as two tabs would.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { answerOutput, createClient, defineTool, pending, StorageError, webStorage, type Tool } from "toolnexus";
import { scripted } from "../support/scripted";
import { asPending } from "../support/results";

type Toolnexus = typeof import("toolnexus");
const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-browser" } as const;

/** Fills localStorage until it refuses even one more character; returns the keys used (to remove them). */
function fillLocalStorage(tag: string): string[] {
  const keys: string[] = [];
  for (let size = 1 << 20; size >= 1; size = Math.floor(size / 2)) {
    for (;;) {
      const key = `${tag}-${keys.length}`;
      try {
        localStorage.setItem(key, "x".repeat(size));
        keys.push(key);
      } catch {
        break;
      }
    }
  }
  return keys;
}

function counting(mod: Pick<Toolnexus, "defineTool" | "pending">, runs: { n: number }): Tool {
  return mod.defineTool({
    name: "book",
    description: "books once approved",
    execute: async (_a, ctx) => {
      if (!ctx?.answer) return mod.pending({ kind: "approval", prompt: "Book it?", id: "q-book" });
      runs.n++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `booked for ${ctx.answer.data?.output}`;
    },
  });
}

describe("webStorage when localStorage is full", () => {
  it("halting is a StorageError carrying the record (QuotaExceededError); it resumes once there is room", async () => {
    const prefix = `tn-quota-${crypto.randomUUID()}:`;
    const runs = { n: 0 };
    const tool = counting({ defineTool, pending }, runs);
    const s = scripted("openai", [{ calls: [{ name: "book" }] }, { text: "done" }]);
    const client = createClient({ ...base, fetch: s.fetch, storage: webStorage({ prefix }) });
    const filler = fillLocalStorage(`fill-${crypto.randomUUID()}`);
    let error: unknown;
    try {
      expect(filler.length).toBeGreaterThan(0);
      error = await client.run("x", { toolkit: [tool] }).then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      filler.forEach((k) => localStorage.removeItem(k));
    }
    expect(error).toBeInstanceOf(StorageError);
    const e = error as StorageError;
    expect((e.cause as DOMException).name).toBe("QuotaExceededError");
    expect(localStorage.getItem(prefix + e.key)).toBeNull();
    await webStorage({ prefix }).set(e.key, e.record!);
    const runId = (JSON.parse(e.record!) as { runId: string }).runId;
    expect((await client.resume(runId, answerOutput("q-book", "Ana"), { toolkit: [tool] })).text).toBe("done");
    expect(runs.n).toBe(1);
  });
});

describe("one run resumed from two same-origin frames, each with its own copy of the SDK", () => {
  const frames: HTMLIFrameElement[] = [];
  const sdks: Toolnexus[] = [];

  beforeAll(async () => {
    const url = `${inject("distBase")}toolnexus.js`;
    for (let i = 0; i < 2; i++) {
      const frame = document.createElement("iframe");
      const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
      frame.srcdoc = "<!doctype html><title>tab</title>";
      document.body.append(frame);
      await loaded;
      frames.push(frame);
      // evaluated in the frame's realm, so the module instance (and its globalThis) is the frame's own
      const load = (frame.contentWindow as unknown as { eval(code: string): Promise<Toolnexus> }).eval(
        `import(${JSON.stringify(url)})`,
      );
      sdks.push(await load);
    }
  });
  afterAll(() => frames.forEach((f) => f.remove()));

  it("100 resumes split over both frames: the tool runs once, the other 99 are RunConflictErrors", async () => {
    const [a, b] = sdks as [Toolnexus, Toolnexus];
    expect(a.createClient).not.toBe(b.createClient);
    expect(a.createClient).not.toBe(createClient);
    const prefix = `tn-tabs-${crypto.randomUUID()}:`;
    const runs = { n: 0 };
    const s = scripted(
      "openai",
      Array.from({ length: 101 }, (_, i) => (i === 0 ? { calls: [{ name: "book" }] } : { text: "done" })),
    );
    const tabA = { sdk: a, storage: a.webStorage({ prefix }), tool: counting(a, runs) };
    const tabB = { sdk: b, storage: b.webStorage({ prefix }), tool: counting(b, runs) };
    expect(tabA.storage.capabilities.atomic).toBe(true); // each frame's own navigator.locks
    const halted = asPending(
      await tabA.sdk
        .createClient({ ...base, fetch: s.fetch, storage: tabA.storage })
        .run("x", { toolkit: [tabA.tool] }),
    );
    const tabs = [tabA, tabB];
    const settled = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => {
        const tab = tabs[i % 2]!;
        return tab.sdk
          .createClient({ ...base, fetch: s.fetch, storage: tab.storage })
          .resume(halted.runId, tab.sdk.answerOutput("q-book", `guest ${i}`), { toolkit: [tab.tool] });
      }),
    );
    expect(runs.n).toBe(1);
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const codes = settled.flatMap((r) => (r.status === "rejected" ? [(r.reason as { code?: string }).code] : []));
    expect(codes.filter((c) => c === "run_conflict")).toHaveLength(99);
    const stored = JSON.parse((await tabB.storage.get(`run:${halted.runId}`))!) as { status: string };
    expect(stored.status).toBe("done");
  });
});
