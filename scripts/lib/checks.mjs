// The small harness the Node test scripts share: named checks, a failure count, cleanups run in reverse
// on exit, and the closing `<label>: N passed, N failed` line that `npm test` adds up.
import { rmSync } from "node:fs";

export function createChecks(label, { tmp, traceLines = 8 } = {}) {
  const cleanups = [];
  const counts = { passed: 0, failed: 0 };

  async function check(name, fn) {
    try {
      await fn();
      counts.passed++;
      console.log(`  ✓ ${name}`);
    } catch (error) {
      fail(name, error);
    }
  }

  function fail(name, error) {
    counts.failed++;
    console.log(
      `  ✗ ${name}\n    ${String(error?.stack ?? error)
        .split("\n")
        .slice(0, traceLines)
        .join("\n    ")}`,
    );
  }

  async function cleanup() {
    for (const fn of cleanups.splice(0).reverse())
      await Promise.resolve()
        .then(fn)
        .catch(() => {});
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }

  function finish() {
    console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
    process.exit(counts.failed ? 1 : 0);
  }

  return { check, fail, cleanup, finish, cleanups, counts };
}
