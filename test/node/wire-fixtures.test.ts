// The behaviour suite reads the recorded provider responses through `*.ts` modules (every runtime can
// import one; not every runtime can read a file). Each module must still hold its recording's bytes.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/wire");

/** The module of a recording: `x.chunks.txt` ⇒ `x-chunks.ts`, `x.json` / `x.sse` ⇒ `x.ts`. */
const moduleOf = (file: string): string =>
  file.endsWith(".chunks.txt") ? file.replace(/\.chunks\.txt$/, "-chunks.ts") : file.replace(/\.(json|sse)$/, ".ts");

const recordings = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(root, d.name))
      .filter((f) => /\.(chunks\.txt|json|sse)$/.test(f))
      .map((f) => join(d.name, f)),
  );

describe("recorded wire fixtures", () => {
  it("there are recordings for each wire", () => {
    expect(new Set(recordings.map((f) => f.split(/[\\/]/)[0]))).toEqual(
      new Set(["openai", "anthropic", "openai-compatible"]),
    );
  });

  it.each(recordings)(
    "%s: its module exports the file's text unchanged, and the README names its source",
    async (file) => {
      const { text } = (await import(join(root, moduleOf(file)))) as { text: string };
      expect(text).toBe(readFileSync(join(root, file), "utf8"));
      expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`\`${file.replace(/\\/g, "/")}\``);
    },
  );
});
