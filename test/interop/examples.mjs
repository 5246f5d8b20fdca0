// examples/ag-ui run as a user runs it (bundled over dist/ with this folder's AG-UI client), and both
// interop examples type-checked against the sources and the real clients' own declarations.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));
const modules = fileURLToPath(new URL("./node_modules", import.meta.url));

export async function exampleChecks({ check }) {
  await check("examples/ag-ui/http-agent.ts runs: the interrupt, then the approved reply", async () => {
    const built = await esbuild.build({
      entryPoints: [join(root, "examples/ag-ui/http-agent.ts")],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      nodePaths: [modules],
      alias: { "toolnexus/ag-ui": join(root, "dist/ag-ui.js"), toolnexus: join(root, "dist/index.js") },
      // the AG-UI client's CommonJS dependencies (uuid, rxjs) need a require in an ES module bundle
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
      logLevel: "error",
    });
    const file = join(mkdtempSync(join(tmpdir(), "toolnexus-ag-ui-")), "http-agent.mjs");
    writeFileSync(file, built.outputFiles[0].text);
    const run = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /interrupt: tool_call — Approve running the tool deploy\?/);
    assert.match(run.stdout, /reply: Deployed\./);
  });
  await check("examples/ag-ui and examples/use-chat type-check (tsc -p test/interop)", () => {
    const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "test/interop"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });
}
