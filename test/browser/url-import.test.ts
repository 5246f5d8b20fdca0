// A page imports the single-file bundle by URL from another origin (global-setup serves dist/ on
// 127.0.0.1 with CORS open), as a site would from a CDN. Needs `npm run build` first.
import { describe, expect, inject, it } from "vitest";
import * as source from "toolnexus";

type Toolnexus = typeof import("toolnexus");

async function importBundle(): Promise<Toolnexus> {
  const url = `${inject("distBase")}toolnexus.js`;
  try {
    return (await import(/* @vite-ignore */ url)) as Toolnexus;
  } catch (cause) {
    throw new Error(`could not import ${url} — run \`npm run build\` before the browser tests`, { cause });
  }
}

describe("Chromium imports dist/toolnexus.js by URL", () => {
  it("loads a cross-origin module, not the sources vitest resolves", async () => {
    const url = `${inject("distBase")}toolnexus.js`;
    expect(new URL(url).origin).not.toBe(location.origin);
    const mod = await importBundle();
    expect(mod.answerOutput).toBeTypeOf("function");
    expect(mod.answerOutput).not.toBe(source.answerOutput);
  });

  it("answerOutput builds the Answer a host sends back", async () => {
    const { answerOutput } = await importBundle();
    expect(answerOutput("sus-1", "Chennai")).toEqual({ id: "sus-1", ok: true, data: { output: "Chennai" } });
    expect(() => answerOutput("sus-1", 42 as unknown as string)).toThrow(
      "toolnexus: Answer output must be a string, got number",
    );
  });

  it("pending suspends with a fresh Request id that pendingOf reads back", async () => {
    const { pending, pendingOf } = await importBundle();
    const a = pending({ kind: "question", prompt: "Which city?", url: "https://example.test/form" });
    const b = pending({ kind: "question", prompt: "Which city?" });
    expect(a).toMatchObject({ output: "Which city?\nhttps://example.test/form", isError: true });
    const request = pendingOf(a);
    expect(request).toMatchObject({ kind: "question", prompt: "Which city?", url: "https://example.test/form" });
    expect(request?.id).toBeTypeOf("string");
    expect(request?.id).not.toBe(pendingOf(b)?.id);
  });

  it("its errors are recognised by another copy of the package", async () => {
    const mod = await importBundle();
    let thrown: unknown;
    try {
      mod.parseAnswer({ id: "sus-1", ok: "yes" });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(mod.InvalidAnswerError);
    expect(thrown).not.toBeInstanceOf(source.InvalidAnswerError);
    expect(source.isToolnexusError(thrown)).toBe(true);
  });
});
