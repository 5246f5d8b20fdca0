// What a page really downloads for one tool-calling run with a suspension when our code is split
// into lazily imported chunks: esbuild (same settings as size.mjs, plus code splitting) writes the
// chunks to a temp dir with a marker in each, the entry is imported and drives that run — a tool
// with a JSON Schema halts, memoryStorage keeps it, resume(answerOutput) finishes it, against a
// scripted OpenAI-style fetch — and the chunks that were evaluated are summed (gzip -9 each, as
// each is a separate download). Deferring code does not make it free. Reported for information (the budgets are in size-packed.mjs).
import { build } from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { root } from "./ours.mjs";

const NAMES = "createClient, createToolkit, defineTool, answerOutput, memoryStorage";
const MARK = "__toolnexusBenchLoaded";

/**
 * @returns gzip bytes of: `initial` — the core bundle: every chunk importing the five names evaluates, as one
 *   stream (what a bundler ships up front; the "core bundle"); `loaded` — the code of every chunk the run evaluated, compressed as one stream
 *   (how much code the run needs, whatever the split); `loadedFiles` — the same chunks gzipped one by one
 *   (what a page downloads when it keeps this split); `entry` — the entry chunk alone; `all` — every chunk;
 *   `chunks.list` — each chunk the run evaluated, its gzip bytes and the source files it holds; `glue` — the
 *   minified bytes of those chunks that are imports/exports between them, not code.
 * @param scenario what the page does with the five names; the budgeted one is a run with a suspension.
 */
export async function loadedForOneRun(scenario = oneRunWithSuspension, { executed = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-size-"));
  try {
    const entryFile = join(dir, "entry.js");
    writeFileSync(entryFile, `export { ${NAMES} } from ${JSON.stringify(join(root, "src/index.ts"))};\n`);
    const out = join(dir, "out");
    const result = await build({
      entryPoints: [entryFile],
      bundle: true,
      splitting: true,
      absWorkingDir: root, // chunk names hash paths relative to it: the same bytes from whatever folder the bench runs in
      minify: true,
      treeShaking: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      outdir: out,
      write: false,
      metafile: true,
      logLevel: "silent",
      legalComments: "none",
    });
    const files = [];
    const sources = sourcesByChunk(result.metafile);
    mkdirSync(out, { recursive: true });
    for (const f of result.outputFiles) {
      const name = basename(f.path);
      files.push({
        name,
        code: f.contents,
        text: f.text,
        gzip: gzipSync(f.contents, { level: 9 }).length,
        sources: sources.get(name) ?? [],
        loaded: false,
      });
      writeFileSync(f.path, marked(name, f.text));
    }
    globalThis[MARK] = new Set();
    const coverage = executed ? await startCoverage() : undefined;
    const tn = await import(pathToFileURL(join(out, "entry.js")).href);
    const upFront = new Set(globalThis[MARK]); // what importing the five names evaluates: the core bundle
    await scenario(tn);
    const ranges = coverage ? await coverage.take() : undefined;
    for (const f of files) f.loaded = globalThis[MARK].has(f.name);
    const sum = (list) => list.reduce((n, f) => n + f.gzip, 0);
    const loaded = files.filter((f) => f.loaded).sort((a, b) => (a.name < b.name ? -1 : 1));
    const initial = loaded.filter((f) => upFront.has(f.name));
    const perFile = new Map(); // minified bytes per source file, over the chunks the run evaluated
    for (const f of loaded) for (const [name, bytes] of f.sources) perFile.set(name, (perFile.get(name) ?? 0) + bytes);
    const minified = loaded.reduce((n, f) => n + f.code.length, 0);
    return {
      parts: [...perFile].sort((a, b) => b[1] - a[1]),
      minified,
      glue: minified - [...perFile.values()].reduce((n, b) => n + b, 0),
      initial: gzipSync(Buffer.concat(initial.map((f) => f.code)), { level: 9 }).length,
      loaded: gzipSync(Buffer.concat(loaded.map((f) => f.code)), { level: 9 }).length,
      loadedFiles: sum(loaded),
      entry: files.find((f) => f.name === "entry.js").gzip,
      all: sum(files),
      chunks: {
        loaded: loaded.length,
        all: files.length,
        list: loaded.map((f) => ({ name: f.name, gzip: f.gzip, sources: f.sources.map(([name]) => name) })),
      },
      skipped: files.filter((f) => !f.loaded).map((f) => f.name.replace(/-[A-Z0-9]{8}\.js$/, "")),
      ...(ranges ? { executed: executedOnly(loaded, ranges, (f) => pathToFileURL(join(out, f.name)).href) } : {}),
    };
  } finally {
    delete globalThis[MARK];
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A chunk's code behind a marker that runs when the module is evaluated (its imports first), i.e. when the page would have fetched it. */
const marked = (name, text) => `globalThis.${MARK}.add(${JSON.stringify(name)});\n${text}`;

/** V8 block coverage from here on (functions and branches, with counts), through the inspector. */
async function startCoverage() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  return {
    async take() {
      const { result } = await session.post("Profiler.takePreciseCoverage");
      await session.post("Profiler.stopPreciseCoverage");
      session.disconnect();
      return new Map(result.map((script) => [script.url, script.functions.flatMap((fn) => fn.ranges)]));
    },
  };
}

/**
 * The code of the loaded chunks that the run executed: every function and branch that never ran is cut
 * out, and what is left is measured like the rest (minified bytes, one gzip stream). It bounds how small
 * any split could make this run's download: the cut code is error handling, checks that passed, and
 * options the run did not use.
 */
function executedOnly(loaded, ranges, urlOf) {
  const kept = loaded.map((f) => {
    const text = marked(f.name, f.text); // as written and run: coverage offsets count the marker
    const counts = new Int32Array(text.length).fill(1);
    // nested ranges refine their parents: apply outer before inner
    const list = [...(ranges.get(urlOf(f)) ?? [])].sort(
      (a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset,
    );
    for (const r of list) counts.fill(r.count, r.startOffset, r.endOffset);
    let out = "";
    for (let i = text.length - f.text.length; i < text.length; i++) if (counts[i] !== 0) out += text[i];
    return out;
  });
  const minified = kept.reduce((n, t) => n + t.length, 0);
  return { minified, gzip: gzipSync(kept.join(""), { level: 9 }).length };
}

const sourceName = (input) =>
  input.includes("node_modules/")
    ? input.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "$1")
    : input.replace(/.*?\bsrc\//, "src/");

/** Per output chunk, the source files whose code it holds and their minified bytes (a chunk of only imports/exports holds none). */
function sourcesByChunk(metafile) {
  const out = new Map();
  for (const [path, o] of Object.entries(metafile.outputs)) {
    out.set(
      basename(path),
      Object.entries(o.inputs)
        .filter(([, i]) => i.bytesInOutput)
        .map(([input, i]) => [sourceName(input), i.bytesInOutput]),
    );
  }
  return out;
}

/**
 * createClient (OpenAI style, scripted fetch) → a tool that needs approval halts → resume → done. The tool
 * suspends by returning the documented ToolResult shape (`metadata.pending`), so only the five budgeted
 * names are imported.
 */
async function oneRunWithSuspension(tn) {
  const { client, toolkit } = await scriptedClient(tn);
  const halted = await client.run("Deploy the fix.", { toolkit });
  if (halted.status !== "pending") throw new Error(`size: the scripted run should halt, got ${halted.status}`);
  const done = await client.resume(halted.runId, tn.answerOutput(halted.pending.id, "yes"), { toolkit });
  if (done.status !== "done" || done.text !== "Deployed.")
    throw new Error(`size: the resumed run should finish, got ${done.status}`);
}

/** The same client and tool, but the tool runs at once: a first run that never suspends (printed by the CLI only). */
async function oneRunWithoutSuspension(tn) {
  const { client, toolkit } = await scriptedClient(tn, true);
  const done = await client.run("Deploy the fix.", { toolkit });
  if (done.status !== "done" || done.text !== "Deployed.")
    throw new Error(`size: the run should finish, got ${done.status}`);
}

async function scriptedClient(tn, approved = false) {
  const replies = [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "deploy", arguments: '{"target":"prod"}' } }],
    },
    { role: "assistant", content: "Deployed." },
  ];
  let turn = 0;
  const fetch = async () =>
    Response.json({
      id: `chatcmpl-${turn}`,
      object: "chat.completion",
      model: "m",
      choices: [{ index: 0, message: replies[Math.min(turn++, 1)], finish_reason: turn === 1 ? "tool_calls" : "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  const deploy = tn.defineTool({
    name: "deploy",
    description: "Deploys after a human approves",
    inputSchema: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
    execute: async ({ target }, ctx) =>
      approved || ctx?.answer
        ? `deployed to ${target}`
        : {
            output: "Approve?",
            isError: true,
            metadata: { pending: { id: "req_1", kind: "approval", prompt: "Approve?" } },
          },
  });
  const toolkit = await tn.createToolkit({ tools: [deploy] });
  const client = tn.createClient({
    baseUrl: "https://llm.invalid/v1",
    style: "openai",
    model: "m",
    fetch,
    storage: tn.memoryStorage(),
  });
  return { client, toolkit };
}

// `node bench/size-loaded.mjs [--chunks]`: the numbers alone, with the run's code per source file (for trimming
// work), how much of it the run executed, the same for a first run without a suspension, and with --chunks what
// each evaluated chunk holds. `--json` prints the measurement of the run with a suspension as JSON, for size.mjs.
const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (isMain && process.argv.includes("--json")) {
  // for size.mjs, in a process of its own: coverage must not instrument the benchmarks that run after it
  console.log(JSON.stringify(await loadedForOneRun(oneRunWithSuspension, { executed: true })));
} else if (isMain) {
  const r = await loadedForOneRun(oneRunWithSuspension, { executed: true });
  for (const [name, bytes] of r.parts) console.log(`${String(bytes).padStart(6)}  ${name}`);
  console.log(
    `minified ${r.minified} B (${r.minified - r.glue} B of code, ${r.glue} B of chunk imports/exports); gzip: core bundle ${r.initial} B, the run's code ${r.loaded} B as one stream, ${r.loadedFiles} B chunk by chunk (${r.chunks.loaded} of ${r.chunks.all} chunks); not loaded: ${r.skipped.join(", ")}`,
  );
  console.log(
    `of that, the code the run executed: minified ${r.executed.minified} B, gzip ${r.executed.gzip} B as one stream`,
  );
  const plain = await loadedForOneRun(oneRunWithoutSuspension);
  console.log(
    `a first run without a suspension: ${plain.chunks.loaded} chunks, minified ${plain.minified} B (${plain.glue} B of chunk imports/exports); gzip: ${plain.loaded} B as one stream, ${plain.loadedFiles} B chunk by chunk`,
  );
  if (process.argv.includes("--chunks")) {
    for (const [what, run] of [
      ["with a suspension", r],
      ["without", plain],
    ]) {
      console.log(`chunks ${what}:`);
      for (const c of run.chunks.list) console.log(`${String(c.gzip).padStart(6)}  ${c.name}  ${c.sources.join(" ")}`);
    }
  }
}
