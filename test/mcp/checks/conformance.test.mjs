// The official conformance suite's 2026-07-28 client scenarios (Node 24 from tools/node24) against
// test/mcp/conformance-client.mjs, a small client built on toolnexus/mcp. The suite starts its own mock servers;
// they are kept on loopback (a network namespace of their own where allowed, else a preload binding every
// listen to 127.0.0.1).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { check, root } from "./support.mjs";

const LOOPBACK = join(root, "test/mcp/support/loopback-only.mjs");

// the 2026-07-28 client scenarios that need no OAuth (connectMcp has none yet: docs/guide/mcp.md)
const CONFORMANCE_SCENARIOS = [
  "tools_call",
  "request-metadata",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
  "json-schema-2020-12-preservation",
  // again as a page's main thread, where the Mcp-Param-* headers are toolnexus/mcp's own (src/mcp/headers.ts)
  "http-custom-headers as a page",
];

async function conformanceChecks() {
  // Node 24 as every other part of the project gets it (scripts/tools-install.sh: checked, installed if stale)
  const node24 = join(root, "tools/node24/node_modules/.bin/node");
  beforeAll(() => {
    const install = spawnSync("bash", [join(root, "scripts/tools-install.sh")], { cwd: root, stdio: "inherit" });
    if (install.status !== 0) throw new Error("scripts/tools-install.sh failed");
  });
  const cli = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  // The suite's mock servers listen on every interface. Where we may, run it in a network namespace of its own,
  // whose only interface is loopback; elsewhere preload the patch that binds every listen to 127.0.0.1.
  const netns = spawnSync("unshare", ["-n", "ip", "link", "set", "lo", "up"]).status === 0;
  const command = (scenario) => {
    const args = [
      cli,
      "client",
      "--command",
      `${process.execPath} test/mcp/conformance-client.mjs`,
      "--scenario",
      scenario,
    ];
    args.push("--spec-version", "2026-07-28");
    if (!netns) return [node24, ["--import", LOOPBACK, ...args]];
    return ["unshare", ["-n", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', node24, ...args]];
  };
  for (const name of CONFORMANCE_SCENARIOS) {
    await check(`conformance 2026-07-28 client: ${name}`, async () => {
      const [scenario, page] = name.split(" as a ");
      const [cmd, args] = command(scenario);
      const out = spawnSync(cmd, args, {
        env: { ...process.env, NO_COLOR: "1", TOOLNEXUS_AS_PAGE: page ? "1" : "0" },
        cwd: root,
        encoding: "utf8",
        timeout: 120_000,
      });
      const text = `${out.stdout}\n${out.stderr}`;
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(text);
      assert.ok(summary, `no summary:\n${text.slice(-2000)}`);
      assert.equal(
        summary[3],
        "0",
        text
          .split("\n")
          .filter((l) => /FAILURE|WARNING/.test(l))
          .join("\n"),
      );
      console.log(`    ${summary[1]}/${summary[2]} checks`);
    });
  }
}

await conformanceChecks();
