// `npm run bench`: runs every benchmark in one process, peers alternating, then the peer benchmarks again
// on Node 24 with the peers at their newest releases (bench/next/, in a child process), and writes
// bench/RESULTS.md with both.
//   node bench/run.mjs                 full run (both), writes bench/RESULTS.md
//   node bench/run.mjs --only=sse,loop run some benchmarks, print to stdout only (add --next: on Node 24 too)
//   node bench/run.mjs --smoke         one tiny sample of each (what scripts/test-bench.mjs runs)
//   node bench/run.mjs --json          print {versions, sections} as JSON (what the Node 24 child answers)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { peersRoot, root } from "./ours.mjs";
import * as size from "./size.mjs";
import * as sizePacked from "./size-packed.mjs";
import * as loop from "./loop.mjs";
import * as suspend from "./suspend.mjs";
import * as sse from "./sse.mjs";
import * as coldStart from "./cold-start.mjs";
import * as workerEval from "./worker-eval.mjs";
import * as pack from "./pack.mjs";
import * as mcp from "./mcp.mjs";
import * as otel from "./otel.mjs";
import * as wires from "./wires.mjs";
import * as expire from "./expire.mjs";
import * as agents from "./agents.mjs";

export const BENCHMARKS = {
  size,
  "size-packed": sizePacked,
  loop,
  suspend,
  sse,
  "cold-start": coldStart,
  "worker-eval": workerEval,
  pack,
  mcp,
  otel,
  wires,
  expire,
  agents,
};
/** The benchmarks with peers in them: the ones run again on Node 24 with the newest peers. */
export const PEER_BENCHMARKS = ["size", "loop", "suspend", "sse", "mcp", "otel", "wires", "agents"];
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

/** Why these peer versions: checked against the npm registry when they were last bumped. */
const PEERS_NOTE =
  "The peers pinned in package.json are the newest releases that run on Node 20, the Node this project targets: `ai` 7, " +
  "`@ai-sdk/openai` 4, `@ai-sdk/mcp` 2 and `eventsource-parser` 4 declare `engines.node` ≥ 22 (checked 2026-12-01), so the last " +
  "6.x, 3.x, 1.x and 3.x are pinned there; `@openai/agents` 0.20.0 is its newest release. The second part runs the newest releases of all of them " +
  "(bench/next/package.json) on Node 24.";

const NODE24 = `${root}tools/node24/node_modules/.bin/node`;
const PEERS = ["ai", "@ai-sdk/openai", "@ai-sdk/mcp", "@openai/agents", "zod", "eventsource-parser"];

/** Versions of everything measured, read from the installed packages. */
export function versions() {
  const v = (name, dir = root) => JSON.parse(readFileSync(`${dir}/node_modules/${name}/package.json`, "utf8")).version;
  const own = JSON.parse(readFileSync(`${root}/package.json`, "utf8")).version;
  const where = peersRoot === root ? "" : ` (${peersRoot.slice(root.length).replace(/\/$/, "")})`;
  return [
    ["toolnexus", `${own} — working-tree sources${commit()}, bundled by esbuild`],
    ...PEERS.map((n) => [n, v(n, peersRoot) + where]),
    ...["esbuild", "wrangler", "miniflare"].map((n) => [n, v(n)]),
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

/** One run's part of RESULTS.md: its versions, its goals and its sections, headings at `level`. */
/** A goal as named before its bound: the same goal with a restated budget still matches. */
const goalKey = (goal) => goal.split(/ ≤ | ≥ /)[0].trim();

/**
 * The goals table of each part of the RESULTS.md about to be replaced (goal → what it measured), and the
 * commit it was measured at: the new run is shown beside it.
 */
export function previousGoals(text) {
  const parts = text.split(/^## Part \d/m).slice(1);
  const at = /working-tree sources at (\w+)/.exec(text)?.[1];
  return {
    at,
    parts: parts.map((part) => {
      const table = part.split(/^#+ Goals at a glance/m)[1]?.split(/\n\n/)[1] ?? "";
      const rows = table
        .split("\n")
        .slice(2)
        .map((line) => line.split(" | "));
      return new Map(rows.filter((r) => r.length >= 2).map((r) => [goalKey(r[0].replace(/^\| /, "")), r[1]]));
    }),
  };
}

function part({ versions: rows, sections }, level, before) {
  const h = "#".repeat(level);
  const out = ["| Component | Version |", "| --- | --- |", ...rows.map(([n, v]) => `| ${n} | ${v} |`), ""];
  const goals = sections.flatMap((s) => s.goals ?? []);
  if (goals.length) {
    const was = before?.goals;
    out.push(`${h} Goals at a glance`, "");
    out.push(was ? `| Goal | Measured | | The run before (${before.at ?? "?"}) |` : "| Goal | Measured | |");
    out.push(was ? "| --- | --- | --- | --- |" : "| --- | --- | --- |");
    for (const g of goals) {
      let met = "";
      if (g.met !== undefined) met = g.met ? "met" : "**missed**";
      const row = `| ${g.goal} | ${g.measured} | ${met} |`;
      out.push(was ? `${row} ${was.get(goalKey(g.goal)) ?? "–"} |` : row);
    }
    out.push("");
  }
  for (const s of sections) out.push(`${h} ${s.title}`, "", s.text, "");
  return out;
}

/** RESULTS.md: this process's run, then (when given) the Node 24 run on the newest peers. */
export function markdown(sections, next, previous) {
  const out = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (`bench/run.mjs`); do not edit by hand. Every benchmark warms up, then repeats,",
    "running the participants alternately in one Node process; cells are **median (p25–p75)**. Absolute times on a",
    "shared 2-core machine are noise — read the **ratios**.",
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
  const pinned = { versions: versions(), sections };
  const before = (i) => previous && { at: previous.at, goals: previous.parts[i] };
  if (!next) out.push(...part(pinned, 2, before(0)));
  else {
    out.push(
      `## Part 1 — Node ${process.versions.node}, the peers pinned in package.json`,
      "",
      ...part(pinned, 3, before(0)),
    );
    out.push(`## Part 2 — Node ${next.node}, the peers at their newest releases`, "");
    out.push(
      "The benchmarks with peers in them again, in a second process on Node 24 (`tools/node24`), with the peers installed from `bench/next/package.json`; toolnexus is the same build of the same sources.",
      "",
    );
    out.push(...part(next, 3, before(1)));
  }
  out.push(`Generated ${new Date().toISOString().slice(0, 10)}.`, "");
  return out.join("\n");
}

/**
 * The peer benchmarks on Node 24 with the newest peers: this file again in a child process, under
 * bench/next/register.mjs, answering JSON. Installs tools/node24 and bench/next first when missing.
 */
export async function runNext({ smoke = false, only = PEER_BENCHMARKS, log = () => {} } = {}) {
  const install = fileURLToPath(new URL("../scripts/tools-install.sh", import.meta.url));
  if (!existsSync(NODE24) || !existsSync(`${root}bench/next/node_modules`))
    execFileSync("bash", [install], { stdio: ["ignore", "inherit", "inherit"] });
  const register = fileURLToPath(new URL("./next/register.mjs", import.meta.url));
  const args = [
    "--import",
    register,
    fileURLToPath(import.meta.url),
    "--json",
    `--only=${only.join(",")}`,
    ...(smoke ? ["--smoke"] : []),
  ];
  log(`[bench] Node 24 with the newest peers: ${only.join(", ")} …`);
  const child = spawn(NODE24, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr.on("data", (d) => log(String(d).trimEnd().replace(/^/gm, "[node 24] ")));
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  // a failed check exits non-zero, and its JSON still says which; no JSON at all is a crash
  const code = await new Promise((resolve, reject) => child.on("error", reject).on("close", resolve));
  try {
    return JSON.parse(stdout);
  } catch {
    throw new Error(`the Node 24 benchmark run (${args.join(" ")}) exited ${code} without its JSON`);
  }
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (isMain) {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke");
  const json = args.includes("--json");
  const onlyArg = args.find((a) => a.startsWith("--only="));
  const only = onlyArg ? onlyArg.slice(7).split(",") : undefined;
  const unknown = (only ?? []).filter((id) => !BENCHMARKS[id]);
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(BENCHMARKS).join(", ")}`);
    process.exit(2);
  }
  const log = (m) => console.error(m);
  const sections = await runAll({ smoke, only, log });
  let failed = sections.flatMap((s) => s.checks).filter((c) => !c.ok);
  if (json) {
    const keep = sections.map(({ id, title, text, goals, checks }) => ({ id, title, text, goals, checks }));
    console.log(JSON.stringify({ node: process.versions.node, versions: versions(), sections: keep }));
    process.exit(failed.length ? 1 : 0);
  }
  const withNext = !only || args.includes("--next");
  const next = withNext
    ? await runNext({ smoke, only: only ? only.filter((id) => PEER_BENCHMARKS.includes(id)) : PEER_BENCHMARKS, log })
    : undefined;
  const resultsUrl = new URL("./RESULTS.md", import.meta.url);
  const previous =
    !smoke && !only && existsSync(resultsUrl) ? previousGoals(readFileSync(resultsUrl, "utf8")) : undefined;
  const md = markdown(sections, next, previous);
  if (!smoke && !only) {
    writeFileSync(resultsUrl, md);
    console.error("[bench] wrote bench/RESULTS.md");
  }
  console.log(md);
  failed = [
    ...failed,
    ...(next?.sections ?? [])
      .flatMap((s) => s.checks)
      .filter((c) => !c.ok)
      .map((c) => ({ ...c, name: `Node 24, newest peers: ${c.name}` })),
  ];
  for (const c of failed)
    console.error(`[bench] check failed: ${c.name}${c.detail ? ` — ${String(c.detail).split("\n")[0]}` : ""}`);
  process.exit(failed.length ? 1 : 0);
}
