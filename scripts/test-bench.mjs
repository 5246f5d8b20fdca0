// Run by `npm test`: a tiny smoke pass of every benchmark in bench/ (each must run and produce numbers
// for every participant; no timing is ever asserted) plus the one hard check, the bundle-size budget:
// createClient + createToolkit + defineTool + answerOutput + memoryStorage, esbuild-minified for the
// browser and gzipped, must stay ≤ 12 KiB. Prints `N passed, N failed`; exits non-zero on any failure.
import { runAll } from "../bench/run.mjs";
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
const ours = size?.results?.toolnexus;
report(
  `size budget: toolnexus entry ≤ ${BUDGET_GZIP_BYTES.toLocaleString("en")} B gzip` + (ours?.gzip ? ` (now ${ours.gzip.toLocaleString("en")} B)` : ""),
  typeof ours?.gzip === "number" && ours.gzip <= BUDGET_GZIP_BYTES,
  ours?.error ??
    (ours?.gzip
      ? `over by ${(ours.gzip - BUDGET_GZIP_BYTES).toLocaleString("en")} B; largest files (minified B): ${ours.files.slice(0, 6).map(([f, b]) => `${f} ${b}`).join(", ")} — details: npm run bench -- --only=size`
      : "not measured"),
);
for (const s of sections) for (const c of s.checks) report(c.name, c.ok, c.detail);

console.log(`bench: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
