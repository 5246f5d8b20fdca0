// Adds up the counts of every test runner `npm test` ran and prints `total: N passed, N failed`.
// vitest: its JSON report; Deno: its "ok | N passed | N failed" line; scripts/test-*.mjs: "N passed, N failed".
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? ".ci-out";
let passed = 0;
let failed = 0;
const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : "");

try {
  const v = JSON.parse(read("vitest.json"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  if (!v.success && !v.numFailedTests) failed++; // a test file that failed to load
  if (v.numPendingTests || v.numTodoTests) {
    console.log(`vitest: ${v.numPendingTests + v.numTodoTests} skipped/todo tests — not allowed`);
    failed += v.numPendingTests + v.numTodoTests;
  }
} catch {
  console.log("vitest: no report");
  failed++;
}
const deno = /\| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(read("deno.txt"));
if (deno) {
  passed += +deno[1];
  failed += +deno[2];
} else {
  console.log("deno: no summary line");
  failed++;
}
for (const f of readdirSync(dir).filter((f) => /^test-.*\.txt$/.test(f))) {
  const m = /(\d+) passed, (\d+) failed/.exec(read(f));
  if (m) {
    passed += +m[1];
    failed += +m[2];
  } else {
    console.log(`${f}: no summary line`);
    failed++;
  }
}
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
