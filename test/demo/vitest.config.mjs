// The `npm start` demo, end to end in real Chromium: test/demo/*.test.mjs start the demo with the launcher
// (launcher.mjs: the Worker in workerd through scripts/start.mjs, or the same page under Deno.serve, on
// 127.0.0.1) and play a user against it. `npm test` runs it (scripts/test-all.sh); by hand:
//   npx vitest run --config test/demo/vitest.config.mjs
import { defineConfig } from "vitest/config";

process.env.WRANGLER_SEND_METRICS ??= "false"; // telemetry
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false"; // miniflare's request.cf download
process.env.WRANGLER_HIDE_BANNER ??= "true"; // banner = npm "update available" check

export default defineConfig({
  test: {
    name: "demo",
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/demo/**/*.test.mjs"],
    environment: "node",
    // one demo at a time (each runs wrangler or Deno, a browser and an MCP server), as the script did
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
