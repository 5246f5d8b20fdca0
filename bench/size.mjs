// 1. Bundle size: what a page needs for one tool-calling run with a suspension, bundled by esbuild
// with the same settings for everyone (platform browser, ESM, minified, tree-shaken), then gzip -9.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { peersRoot, root } from "./ours.mjs";
import { fmtBytes, ratio, table } from "./lib.mjs";

/**
 * The code-split and whole-entry figures, for information only: DESIGN's budgets are set on what each named
 * user ships, measured from the packed package (bench/size-packed.mjs enforces them).
 */
export const ENTRIES = [
  {
    name: "toolnexus",
    imports: "createClient, createToolkit, defineTool, answerOutput, memoryStorage",
    contents: `export { createClient, createToolkit, defineTool, answerOutput, memoryStorage } from "./src/index.ts";`,
  },
  {
    name: "ai + @ai-sdk/openai",
    imports: "generateText, tool, jsonSchema, stepCountIs (ai); createOpenAI (@ai-sdk/openai)",
    contents: `export { generateText, tool, jsonSchema, stepCountIs } from "ai";\nexport { createOpenAI } from "@ai-sdk/openai";`,
  },
  {
    name: "@openai/agents",
    imports: "Agent, run, tool, RunState",
    contents: `export { Agent, run, tool, RunState } from "@openai/agents";`,
  },
];

/**
 * toolnexus/mcp on its own, beside @ai-sdk/mcp (DESIGN: measured apart from the core budgets): each entry
 * is what connecting to a remote MCP server over streamable HTTP and getting its tools takes.
 */
export const MCP_ENTRIES = [
  {
    name: "toolnexus/mcp",
    imports: "connectMcp",
    contents: `export { connectMcp } from ${JSON.stringify(join(root, "src/mcp/index.ts"))};`,
  },
  { name: "@ai-sdk/mcp", imports: "createMCPClient", contents: `export { createMCPClient } from "@ai-sdk/mcp";` },
];

/** Bundles one entry; returns raw and gzip sizes plus the three largest contributors by package. */
export async function measureEntry(entry) {
  const result = await build({
    stdin: {
      contents: entry.contents,
      resolveDir: entry.name === "toolnexus" ? root : peersRoot,
      loader: "js",
      sourcefile: "entry.js",
    },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
  });
  const code = result.outputFiles[0].contents;
  const byPackage = {};
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    let key = file.startsWith("src/") ? "toolnexus src/" : file;
    if (m) key = m[1];
    byPackage[key] = (byPackage[key] ?? 0) + bytesInOutput;
  }
  const largest = Object.entries(byPackage)
    .filter(([, b]) => b > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);
  const files = Object.entries(inputs)
    .map(([file, { bytesInOutput }]) => [file, bytesInOutput])
    .filter(([file, b]) => b > 0 && file.startsWith("src/"))
    .sort((a, b) => b[1] - a[1]);
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length, largest, files };
}

export async function bench() {
  const results = {};
  for (const entry of ENTRIES)
    results[entry.name] = await measureEntry(entry).catch((error) => ({ error: firstLine(error) }));
  for (const entry of MCP_ENTRIES)
    results[entry.name] = await measureEntry(entry).catch((error) => ({ error: firstLine(error) }));
  const ours = results.toolnexus;
  const split = loadedInChild();
  results.split = split;
  const rows = entryRows(ENTRIES, results, ours?.gzip);
  const text = [
    "One file per entry (dynamic imports inlined): everything the entry can ever reach.",
    "",
    table(["Entry (what it imports)", "Minified", "Gzip -9", "Gzip vs ours", "Largest parts (minified)"], rows),
    "",
    split.error ? `Code-split measurement failed: ${split.error}` : splitTable(split),
    "",
    "MCP clients, measured on their own (not part of the budgets above): connecting to a remote server over streamable HTTP and listing its tools.",
    "",
    table(
      ["Entry (what it imports)", "Minified", "Gzip -9", "Gzip vs toolnexus/mcp", "Largest parts (minified)"],
      entryRows(MCP_ENTRIES, results, results["toolnexus/mcp"]?.gzip),
    ),
    "",
    ...(ours.error
      ? []
      : [
          "",
          `Our largest source files (minified bytes in the one-file bundle): ${ours.files
            .slice(0, 10)
            .map(([f, b]) => `${f.slice(4)} ${fmtBytes(b)}`)
            .join(", ")}.`,
        ]),
  ].join("\n");
  const checks = [
    ...[...ENTRIES, ...MCP_ENTRIES].map((e) => ({
      name: `size: ${e.name} bundles`,
      ok: !results[e.name].error && results[e.name].gzip > 0,
      detail: results[e.name].error,
    })),
    {
      name: "size: toolnexus, code-split, runs a tool call with a suspension",
      ok: !split.error && split.loaded > 0,
      detail: split.error,
    },
    {
      name: "size: the share of that code the run executes is measured (V8 block coverage)",
      ok: !split.error && split.executed?.gzip > 0 && split.executed.gzip < split.loaded,
      detail: split.error,
    },
  ];
  return {
    id: "size",
    title: "1. Bundle size (esbuild --minify, platform browser, ESM, tree-shaken; gzip -9)",
    text,
    results,
    checks,
  };
}

/** One table row per entry: sizes, gzip against `base`, and its largest parts. */
function entryRows(entries, results, base) {
  return entries.map((entry) => {
    const r = results[entry.name];
    if (r.error) return [entry.name, "–", "–", "–", `build failed: ${r.error}`];
    const parts = r.largest.map(([k, b]) => `${k} ${fmtBytes(b)}`).join(", ");
    return [`${entry.name} (${entry.imports})`, fmtBytes(r.raw), `**${fmtBytes(r.gzip)}**`, ratio(r.gzip, base), parts];
  });
}

/**
 * size-loaded.mjs's measurement of the run, code split, with the share it executed — in a child process,
 * because the V8 coverage it takes would instrument the benchmarks that run after it in this one.
 */
function loadedInChild() {
  try {
    const script = fileURLToPath(new URL("./size-loaded.mjs", import.meta.url));
    return JSON.parse(
      execFileSync(process.execPath, [script, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
    );
  } catch (error) {
    return { error: firstLine(error) };
  }
}

function splitTable(split) {
  return [
    "toolnexus is also measured code-split, for information (same settings + `splitting`; it has no dynamic import, so a split leaves one chunk): the entry is imported and drives one run — " +
      "`createClient` (scripted OpenAI-style `fetch`) → a JSON-Schema tool suspends → `memoryStorage` → `resume(runId, answerOutput(…))` → done — and the chunks it evaluated are counted.",
    "",
    table(
      ["toolnexus, code-split", "Gzip -9"],
      [
        ["entry chunk alone", fmtBytes(split.entry)],
        [
          "**core bundle**: every chunk importing the five names evaluates, as one gzip stream — for information",
          `**${fmtBytes(split.initial)}**`,
        ],
        [
          `code the run loaded (${split.chunks.loaded} of ${split.chunks.all} chunks, as one gzip stream)`,
          fmtBytes(split.loaded),
        ],
        ["the same chunks gzipped one by one (what a page downloads with this split)", fmtBytes(split.loadedFiles)],
        [
          "of that, only the code the run executed (V8 block coverage; functions and branches that never ran cut out), as one gzip stream: no split can go below it — the rest is error handling, checks that passed and options the run did not use",
          `${fmtBytes(split.executed.gzip)} (${ratio(split.executed.minified, split.minified)} of the minified bytes)`,
        ],
        [`every chunk (not loaded by the run: ${split.skipped.join(", ")})`, fmtBytes(split.all)],
      ],
    ),
  ].join("\n");
}

export function firstLine(error) {
  const errors = error?.errors;
  if (Array.isArray(errors) && errors[0]) return errors[0].text;
  return String(error?.message ?? error).split("\n")[0];
}
