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
 * The size budgets (minified + gzip), for a source with no build-shaping code (no side-effect imports or
 * barrels that exist to steer a bundler's chunks):
 * what importing createClient, createToolkit, defineTool, answerOutput and memoryStorage loads up front;
 * all the code one run with a suspension loads; and the whole single-file bundle (dist/toolnexus.js).
 */
export const BUDGET_GZIP_BYTES = 12 * 1024;
export const RUN_BUDGET_GZIP_BYTES = 16 * 1024;
export const BUNDLE_BUDGET_GZIP_BYTES = 26 * 1024;

/**
 * Ratchets, not the goals (CI-enforced): while a budget above is missed, what is measured may not grow past
 * these. Lower one whenever a change makes that part smaller; never raise one to let a change through
 * without saying why in its commit. RESULTS.md reports each budget as met or missed.
 */
export const CEILINGS = { upFront: 19 * 1024, run: 23 * 1024, bundle: 41.5 * 1024 };

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
    const key = m ? m[1] : file.startsWith("src/") ? "toolnexus src/" : file;
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
  const budgeted = split.error ? undefined : split.initial;
  const budgetOk = budgeted !== undefined && budgeted <= BUDGET_GZIP_BYTES;
  const perRun = split.error ? undefined : split.loaded;
  const bundle = await singleFileGzip();
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
    `**Budget (CI-enforced): the core bundle — what importing ${"`createClient, createToolkit, defineTool, answerOutput, memoryStorage`"} loads up front — ≤ ${fmtBytes(BUDGET_GZIP_BYTES)} (${BUDGET_GZIP_BYTES.toLocaleString("en")} B) gzip** — ` +
      (budgeted === undefined
        ? "not measurable."
        : `${budgeted.toLocaleString("en")} B, ${budgetOk ? "within budget" : `**over budget** (${ratio(budgeted, BUDGET_GZIP_BYTES)})`}.`) +
      (perRun === undefined
        ? ""
        : ` All the code one run with a suspension loads ≤ ${fmtBytes(RUN_BUDGET_GZIP_BYTES)}: ${perRun.toLocaleString("en")} B, ${perRun <= RUN_BUDGET_GZIP_BYTES ? "within budget" : `**over budget** (${ratio(perRun, RUN_BUDGET_GZIP_BYTES)})`}.`),
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
    ...budgetChecks(budgeted, perRun, bundle),
  ];
  const goals = [
    {
      goal: `Core bundle (the five names, up front) ≤ ${fmtBytes(BUDGET_GZIP_BYTES)} gzip (CI-enforced)`,
      measured:
        budgeted === undefined
          ? "not measured"
          : `${fmtBytes(budgeted)} (${ratio(budgeted, BUDGET_GZIP_BYTES)} the budget)`,
      met: budgetOk,
    },
    {
      goal: `All code one run with a suspension loads ≤ ${fmtBytes(RUN_BUDGET_GZIP_BYTES)} gzip (CI-enforced)`,
      measured:
        perRun === undefined
          ? "not measured"
          : `${fmtBytes(perRun)} (${ratio(perRun, RUN_BUDGET_GZIP_BYTES)} the budget; the run executes ${fmtBytes(split.executed.gzip)} of it)`,
      met: perRun !== undefined && perRun <= RUN_BUDGET_GZIP_BYTES,
    },
    {
      goal: `The whole single-file bundle (dist/toolnexus.js) ≤ ${fmtBytes(BUNDLE_BUDGET_GZIP_BYTES)} gzip (CI-enforced)`,
      measured:
        bundle === undefined
          ? "not measured"
          : `${fmtBytes(bundle)} (${ratio(bundle, BUNDLE_BUDGET_GZIP_BYTES)} the budget)`,
      met: bundle !== undefined && bundle <= BUNDLE_BUDGET_GZIP_BYTES,
    },
  ];
  return {
    id: "size",
    goals,
    title: "1. Bundle size (esbuild --minify, platform browser, ESM, tree-shaken; gzip -9)",
    text,
    results,
    checks,
    budgeted,
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

/** The three byte budgets as checks: each a hard limit, reported with what it measured. */
function budgetChecks(upFront, perRun, bundle) {
  const check = (what, measured, budget, ceiling) => ({
    name: `size: ${what} stays ≤ ${ceiling.toLocaleString("en")} B gzip (a ratchet toward the ${budget.toLocaleString("en")} B budget)${measured === undefined ? "" : ` (now ${measured.toLocaleString("en")} B)`}`,
    ok: measured !== undefined && measured <= ceiling,
    detail:
      measured === undefined
        ? "not measured"
        : `over by ${(measured - ceiling).toLocaleString("en")} B — node bench/size-loaded.mjs lists the largest files`,
  });
  return [
    check(
      "the core bundle (createClient, createToolkit, defineTool, answerOutput, memoryStorage, up front)",
      upFront,
      BUDGET_GZIP_BYTES,
      CEILINGS.upFront,
    ),
    check("all the code one run with a suspension loads", perRun, RUN_BUDGET_GZIP_BYTES, CEILINGS.run),
    check("the whole single-file bundle", bundle, BUNDLE_BUDGET_GZIP_BYTES, CEILINGS.bundle),
  ];
}

/** dist/toolnexus.js as the package builds it (minified, everything inlined), gzip -9 — built here the same way. */
async function singleFileGzip() {
  const result = await build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
  }).catch(() => undefined);
  return result && gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
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
    "toolnexus loads parts of itself on first use, so it is also measured code-split (same settings + `splitting`): the entry is imported and drives one run — " +
      "`createClient` (scripted OpenAI-style `fetch`) → a JSON-Schema tool suspends → `memoryStorage` → `resume(runId, answerOutput(…))` → done — and the chunks it evaluated are counted.",
    "",
    table(
      ["toolnexus, code-split", "Gzip -9"],
      [
        ["entry chunk alone", fmtBytes(split.entry)],
        [
          "**core bundle**: every chunk importing the five names evaluates, as one gzip stream — budgeted",
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
