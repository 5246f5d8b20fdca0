// Run by `npm test`: toolnexus/ag-ui and toolnexus/ai-sdk (from dist/) against the real clients of the
// protocols they speak — @ag-ui/client's HttpAgent with @ag-ui/core's schemas, and the AI SDK's Chat (what
// useChat runs), readUIMessageStream and validateUIMessages — served on 127.0.0.1; then examples/use-chat as a
// real useChat page in Chromium and examples/ag-ui as a script, both type-checked. Those clients are dev
// dependencies of test/interop/ (ai 7 needs Node >= 22), so the checks run on tools/node24's Node.
// Prints each check, then `interop: N passed, N failed`; exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const node24 = `${root}tools/node24/node_modules/.bin/node`;
const missing = [node24, `${root}test/interop/node_modules/ai`, `${root}dist/ag-ui.js`].filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.log(
    `  ✗ the real clients' checks cannot run: missing ${missing.join(", ")} (bash scripts/tools-install.sh; npm run build)`,
  );
  console.log("interop: 0 passed, 1 failed");
  process.exit(1);
}
const run = spawnSync(node24, ["test/interop/run.mjs"], { cwd: root, stdio: "inherit", timeout: 300_000 });
if (run.status === null) console.log("interop: 0 passed, 1 failed (timed out)");
process.exit(run.status ?? 1);
