// Adds up the counts of every test runner `npm test` ran: one line per runtime, then one per other test
// script, then the closing `total: N passed, N failed` — always the last line.
//   vitest        vitest*.json, written by scripts/lib/vitest-counts.mjs: one line per project (Node,
//                 Chromium, workerd, React 18, the MCP checks, the demo), labelled with the Node that ran it (20 by default, 24 from tools/node24)
//   Deno          deno.txt: its "ok | N passed | N failed" line
//   test-*.txt    the output of each scripts/test-*.mjs: its closing "<label>: N passed, N failed"
// A runtime whose report is missing counts as a failure, so a runner that silently stopped running is seen.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? ".ci-out";
const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : "");
const rows = []; // [label, passed, failed, note?]

const PROJECTS = {
  node: "Node",
  browser: "Chromium",
  workers: "workerd",
  react18: "React 18 server render",
  mcp: "MCP servers",
  demo: "the demo in Chromium",
};
// [report, project] in the order the lines print: Node 20, Node 24, Chromium, workerd, React 18, MCP, demo
const expected = [
  ["vitest.json", "node"],
  ["vitest-node24.json", "node"],
  ["vitest.json", "browser"],
  ["vitest.json", "workers"],
  ["vitest-react18.json", "react18"],
  ["vitest-mcp.json", "mcp"],
  ["vitest-demo.json", "demo"],
];
const reports = {};
for (const file of new Set(expected.map(([f]) => f))) {
  try {
    const report = JSON.parse(read(file));
    // a browser project's name carries its instance: "browser (chromium)"
    report.projects = Object.fromEntries(Object.entries(report.projects).map(([name, c]) => [name.split(" ")[0], c]));
    reports[file] = report;
  } catch {} // reported below, in its place
}
const unexpected = Object.entries(reports).flatMap(([file, r]) =>
  Object.keys(r.projects)
    .filter((p) => !expected.some(([f, q]) => f === file && q === p))
    .map((p) => [file, p]),
);
for (const [file, name] of [...expected, ...unexpected]) {
  const report = reports[file];
  if (!report) {
    rows.push([`${PROJECTS[name]} (vitest --project ${name}, ${file})`, 0, 1, "no report"]);
    continue;
  }
  const c = report.projects[name];
  const label = `${name === "node" ? `Node ${report.node}` : (PROJECTS[name] ?? name)} (vitest --project ${name})`;
  if (!c) rows.push([label, 0, 1, "did not run"]);
  else rows.push([label, c.passed, c.failed + c.skipped, c.skipped ? `${c.skipped} skipped/todo — not allowed` : ""]);
}
for (const [file, report] of Object.entries(reports))
  if (report.unhandledErrors) rows.push([`vitest (${file}) unhandled errors`, 0, report.unhandledErrors]);

const denoText = read("deno.txt");
const deno = /\| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(denoText);
const denoLabel = `${`Deno ${/^deno (\S+)/m.exec(denoText)?.[1] ?? ""}`.trim()} (deno test)`;
rows.push(deno ? [denoLabel, +deno[1], +deno[2]] : [denoLabel, 0, 1, "no summary line"]);

// the runtimes with a script of their own first (expected: missing is a failure), then the rest by name
const runtimes = ["test-bun.txt", "test-edge.txt"];
const others = readdirSync(dir)
  .filter((f) => /^test-.*\.txt$/.test(f) && !runtimes.includes(f))
  .sort();
for (const f of [...runtimes, ...others]) {
  const m = [...read(f).matchAll(/^(.*?):? ?(\d+) passed, (\d+) failed/gm)].at(-1);
  const name = f.replace(/\.txt$/, "");
  rows.push(
    m ? [m[1] || name, +m[2], +m[3]] : [name, 0, 1, existsSync(join(dir, f)) ? "no summary line" : "did not run"],
  );
}

let passed = 0;
let failed = 0;
for (const [label, p, f, note] of rows) {
  passed += p;
  failed += f;
  console.log(`${label}: ${p} passed, ${f} failed${note ? ` — ${note}` : ""}`);
}
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
