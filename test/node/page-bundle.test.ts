// What a page ships when it imports the run session and the answer helpers from the published package: the
// package is built the way tsup builds dist/ (code-split, so a page's bundler wraps the shared chunks), then
// the page is bundled as a user's bundler would. The server side's tables (createClient's option rules, the
// stored record's shape checks, the redaction patterns) must not come along.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = "export { createRunSession, answerOutput, answerDeclined, answerApproval, answerForm, relayAnswer } from";
let dir: string;
let page: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolnexus-page-"));
  await build({
    entryPoints: { index: join(root, "src/index.ts") },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outdir: dir,
    logLevel: "silent",
  });
  const bundled = await build({
    stdin: { contents: `${PAGE} "./index.js";`, resolveDir: dir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  page = bundled.outputFiles[0]!.text;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Which of `texts` the page's bundle carries (named, rather than the whole bundle printed). */
const carried = (...texts: string[]) => texts.filter((text) => page.includes(text));

describe("the page's bundle", () => {
  it("has the session and the helpers", () => {
    expect(carried("toolnexus:run-session", "relayAnswer results", "answerApproval's")).toHaveLength(3);
  });

  it("carries none of createClient's option rules", () => {
    expect(carried("a RunStorage (e.g. memoryStorage())", "otelTelemetry({ tracer })")).toEqual([]);
  });

  // a module-level value the bundler cannot prove pure (`64 * 1024 * 1024` is an operation to esbuild) stays in
  // every bundle that takes a name from the file it was built into
  it("carries none of createClient's defaults nor the token lifetimes", () => {
    expect(carried("completedTtlSeconds", "365*86400", "31536e3")).toEqual([]);
  });

  it("carries none of the stored record's shape checks", () => {
    expect(carried("must be a RunResult")).toEqual([]);
  });

  it("carries none of the redaction patterns", () => {
    expect(carried("access_token", "Bearer|Basic")).toEqual([]);
  });

  it("carries none of the Answer and Request shape checks", () => {
    expect(carried("must be an RFC 3339 timestamp")).toEqual([]);
  });
});
