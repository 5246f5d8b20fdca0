// The MCP checks (test/mcp/checks/*.test.mjs) as a vitest run of their own, in Node, against dist/: the servers
// they talk to — the test server and @modelcontextprotocol/server-everything — are started on 127.0.0.1 in the
// globalSetup and stopped after. `npm test` runs it (scripts/test-all.sh); by hand:
//   npx vitest run --config test/mcp/vitest.config.mjs
import { defineConfig } from "vitest/config";

process.env.WRANGLER_SEND_METRICS ??= "false";

export default defineConfig({
  test: {
    name: "mcp",
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/mcp/checks/**/*.test.mjs"],
    environment: "node",
    globalSetup: ["test/mcp/global-setup.mjs"],
    // the files share the servers (the test server's `expire` ends every requestState it minted): one at a time,
    // in one fork, as the script that ran them did
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
