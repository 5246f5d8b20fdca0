// A vitest reporter for `npm test`: writes each project's counts (node, browser, workers) and the Node
// that ran vitest to the JSON file named by $VITEST_COUNTS, for scripts/tally.mjs. vitest's own JSON
// report does not say which project a test ran in, and the behavioural suite runs in all of them.
//   vitest run --reporter=default --reporter=./scripts/lib/vitest-counts.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export default class VitestCounts {
  onTestRunEnd(testModules, unhandledErrors = []) {
    const projects = {};
    for (const module of testModules) {
      const c = (projects[module.project.name] ??= { passed: 0, failed: 0, skipped: 0, files: 0 });
      c.files++;
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") c.passed++;
        else if (state === "failed") failedHere++;
        else c.skipped++; // skipped, todo, or never run
      }
      // a file that failed to load, or a failing beforeAll/afterAll, has no failed test to show for it
      if (module.state() === "failed" && failedHere === 0) failedHere = 1;
      c.failed += failedHere;
    }
    const file = process.env.VITEST_COUNTS;
    if (!file) return;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({ node: process.versions.node, projects, unhandledErrors: unhandledErrors.length }, null, 2),
    );
  }
}
