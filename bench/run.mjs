// `npm run bench`: runs every benchmark in one process, peers alternating, and writes bench/RESULTS.md.
//   node bench/run.mjs                 full run, writes bench/RESULTS.md
//   node bench/run.mjs --only=sse,loop run some benchmarks, print to stdout only
//   node bench/run.mjs --smoke         one tiny sample of each (what scripts/test-bench.mjs runs)
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { root } from "./ours.mjs";
import * as size from "./size.mjs";
import * as loop from "./loop.mjs";
import * as suspend from "./suspend.mjs";
import * as sse from "./sse.mjs";
import * as coldStart from "./cold-start.mjs";

export const BENCHMARKS = { size, loop, suspend, sse, "cold-start": coldStart };
const loadAtStart = loadavg(); // how busy the machine was: other processes make every number noisier

/** Runs the named benchmarks in order; a benchmark that throws becomes a failed section, not a crash. */
export async function runAll({ smoke = false, only = Object.keys(BENCHMARKS), log = () => {} } = {}) {
  const sections = [];
  for (const id of only) {
    const t0 = performance.now();
    log(`[bench] ${id} …`);
    try {
      sections.push(await BENCHMARKS[id].bench({ smoke, log }));
    } catch (error) {
      const detail = String(error?.stack ?? error);
      sections.push({
        id,
        title: id,
        text: `Failed: \`${String(error?.message ?? error).split("\n")[0]}\``,
        results: {},
        checks: [{ name: `${id}: runs`, ok: false, detail }],
      });
    }
    log(`[bench] ${id} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return sections;
}

/** Why these peer versions (pinned in package.json): checked against the npm registry when they were last bumped. */
const PEERS_NOTE =
  "The peers are the newest releases that run on Node 20, the Node this project targets: `ai` 7, `@ai-sdk/openai` 4 and " +
  "`eventsource-parser` 4 declare `engines.node` ≥ 22 (checked 2026-12-01), so the last 6.x, 3.x and 3.x are pinned; " +
  "`@openai/agents` 0.20.0 is its newest release.";

/** Versions of everything measured, read from the installed packages. */
export function versions() {
  const v = (name) => JSON.parse(readFileSync(`${root}/node_modules/${name}/package.json`, "utf8")).version;
  const own = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).version;
  return [
    ["toolnexus", `${own} — working-tree sources${commit()}, bundled by esbuild`],
    ...["ai", "@ai-sdk/openai", "@openai/agents", "zod", "eventsource-parser", "esbuild", "wrangler", "miniflare"].map(
      (n) => [n, v(n)],
    ),
    ["Node.js", process.versions.node],
    ["V8", process.versions.v8],
    ["CPU", `${cpus().length} × ${cpus()[0]?.model ?? "?"}`],
    ["Load average when the run started (1/5/15 min)", loadAtStart.map((l) => l.toFixed(1)).join(" / ")],
  ];
}

function commit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return ` at ${sha}${dirty ? " + uncommitted changes in src/" : ""}`;
  } catch {
    return "";
  }
}

export function markdown(sections) {
  const out = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (`bench/run.mjs`); do not edit by hand. Every benchmark warms up, then repeats,",
    "running the participants alternately in one Node process; cells are **median (p25–p75)**. Absolute times on a",
    "shared 2-core machine are noise — read the **ratios**.",
    "",
    "| Component | Version |",
    "| --- | --- |",
    ...versions().map(([n, v]) => `| ${n} | ${v} |`),
    "",
    PEERS_NOTE,
    "",
  ];
  if (loadAtStart[0] > cpus().length) {
    out.push(
      `> The machine was busy (load ${loadAtStart[0].toFixed(1)} on ${cpus().length} cores): time ratios near a goal can move by a third between runs; sizes and bytes allocated do not.`,
      "",
    );
  }
  const goals = sections.flatMap((s) => s.goals ?? []);
  if (goals.length) {
    out.push("## Goals at a glance", "", "| Goal | Measured | |", "| --- | --- | --- |");
    for (const g of goals)
      out.push(`| ${g.goal} | ${g.measured} | ${g.met === undefined ? "" : g.met ? "met" : "**missed**"} |`);
    out.push("");
  }
  for (const s of sections) out.push(`## ${s.title}`, "", s.text, "");
  out.push(`Generated ${new Date().toISOString().slice(0, 10)}.`, "");
  return out.join("\n");
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (isMain) {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke");
  const onlyArg = args.find((a) => a.startsWith("--only="));
  const only = onlyArg ? onlyArg.slice(7).split(",") : undefined;
  const unknown = (only ?? []).filter((id) => !BENCHMARKS[id]);
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(BENCHMARKS).join(", ")}`);
    process.exit(2);
  }
  const sections = await runAll({ smoke, only, log: (m) => console.error(m) });
  const md = markdown(sections);
  if (!smoke && !only) {
    writeFileSync(new URL("./RESULTS.md", import.meta.url), md);
    console.error("[bench] wrote bench/RESULTS.md");
  }
  console.log(md);
  const failed = sections.flatMap((s) => s.checks).filter((c) => !c.ok);
  for (const c of failed)
    console.error(`[bench] check failed: ${c.name}${c.detail ? ` — ${String(c.detail).split("\n")[0]}` : ""}`);
  process.exit(failed.length ? 1 : 0);
}
