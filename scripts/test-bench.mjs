// Run by `npm test`: a tiny smoke pass of every benchmark in bench/ (each must run and produce numbers
// for every participant; no timing is ever asserted) plus the one hard check, the bundle-size budget:
// DESIGN's core bundle — what importing createClient + createToolkit + defineTool + answerOutput +
// memoryStorage loads up front, esbuild-minified for the browser, code-split and gzipped — must stay
// ≤ 12 KiB. (All the code one run with a suspension loads is measured too, in bench/RESULTS.md; it is over
// that goal, so the size benchmark's own checks enforce a ratchet on it — RUN_LOADED_CEILING — and its
// number of chunks.) The peer benchmarks' smoke pass runs again on Node 24 with the newest peers
// (bench/next/), as `npm run bench` does. Prints `N passed, N failed`; exits non-zero on any failure.
import { runAll, runNext } from "../bench/run.mjs";
import { BUDGET_GZIP_BYTES } from "../bench/size.mjs";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";

let passed = 0;
let failed = 0;
function report(name, ok, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? "✓" : "✗"} ${name}${!ok && detail ? `\n      ${String(detail).split("\n").slice(0, 6).join("\n      ")}` : ""}`);
}

const sections = await runAll({ smoke: true, log: (m) => console.log(m) });

const size = sections.find((s) => s.id === "size");
const budgeted = size?.budgeted;
const files = size?.results?.toolnexus?.files ?? [];
report(
  `size budget: the core bundle (createClient, createToolkit, defineTool, answerOutput, memoryStorage) ≤ ${BUDGET_GZIP_BYTES.toLocaleString("en")} B gzip` + (budgeted ? ` (now ${budgeted.toLocaleString("en")} B)` : ""),
  typeof budgeted === "number" && budgeted <= BUDGET_GZIP_BYTES,
  typeof budgeted === "number"
    ? `over by ${(budgeted - BUDGET_GZIP_BYTES).toLocaleString("en")} B; largest files (minified B): ${files.slice(0, 6).map(([f, b]) => `${f} ${b}`).join(", ")} — details: npm run bench -- --only=size`
    : `not measured: ${size?.results?.split?.error ?? size?.text ?? "the size benchmark did not run"}`,
);
for (const s of sections) for (const c of s.checks) report(c.name, c.ok, c.detail);

try {
  const next = await runNext({ smoke: true, log: (m) => console.log(m) });
  const peers = next.versions.filter(([n]) => ["ai", "@ai-sdk/openai", "@openai/agents", "eventsource-parser"].includes(n)).map(([n, v]) => `${n} ${v.split(" ")[0]}`);
  console.log(`  Node ${next.node}, newest peers: ${peers.join(", ")}`);
  for (const s of next.sections) for (const c of s.checks) report(`Node ${next.node}, newest peers: ${c.name}`, c.ok, c.detail);
} catch (error) {
  report("Node 24, newest peers: the benchmarks run", false, error?.stack ?? error);
}

console.log(`bench: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
