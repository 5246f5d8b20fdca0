// Run by `npm test`: a tiny smoke pass of every benchmark in bench/ (each must run and produce numbers
// for every participant; no timing is ever asserted) plus the hard checks, the three byte budgets of
// bench/size.mjs: the core bundle up front, all the code one run with a suspension loads, and the whole
// single-file bundle. Prints `N passed, N failed`; exits non-zero on any failure.
import { runAll } from "../bench/run.mjs";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";

let passed = 0;
let failed = 0;
function report(name, ok, detail) {
  if (ok) passed++;
  else failed++;
  console.log(
    `  ${ok ? "✓" : "✗"} ${name}${!ok && detail ? `\n      ${String(detail).split("\n").slice(0, 6).join("\n      ")}` : ""}`,
  );
}

const sections = await runAll({ smoke: true, log: (m) => console.log(m) });

for (const s of sections) for (const c of s.checks) report(c.name, c.ok, c.detail);

console.log(`bench: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
