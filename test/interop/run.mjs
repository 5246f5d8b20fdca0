// The real clients against toolnexus/ag-ui and toolnexus/ai-sdk (built into dist/), on Node >= 22 (ai 7
// needs it). Prints a ✓ or ✗ per check, then `interop: N passed, N failed`; exits non-zero on a failure.
import { agUiChecks } from "./ag-ui.mjs";
import { exampleChecks } from "./examples.mjs";
import { pageChecks } from "./page.mjs";
import { uiChecks } from "./ui.mjs";
import { checks } from "./world.mjs";

const runner = checks();
await agUiChecks(runner);
await uiChecks(runner);
await pageChecks(runner);
await exampleChecks(runner);
const { passed, failed } = runner.counts();
console.log(`interop: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
