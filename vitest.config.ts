import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";

// Keep Wrangler/Miniflare off the internet even when someone runs `npx vitest` by hand.
process.env.WRANGLER_SEND_METRICS ??= "false"; // telemetry
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false"; // miniflare's request.cf download
process.env.WRANGLER_HIDE_BANNER ??= "true"; // banner = npm "update available" check

// Debian's Chromium, headless, with no DNS except loopback. Playwright adds the headless flag and
// a fresh temporary profile itself (passing --user-data-dir in args is an error).
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
];

// The behavioural suite imports the package by name; vitest runs it against the sources. (The subpaths come
// first: "toolnexus" alone would also take "toolnexus/…". The workers project's main, the demo Worker, names
// toolnexus/mcp.)
const alias = {
  "toolnexus/testing": fileURLToPath(new URL("./src/testing/index.ts", import.meta.url)),
  "toolnexus/mcp": fileURLToPath(new URL("./src/mcp/index.ts", import.meta.url)),
  "toolnexus/otel": fileURLToPath(new URL("./src/otel/index.ts", import.meta.url)),
  "toolnexus/agents": fileURLToPath(new URL("./src/agents/index.ts", import.meta.url)),
  "toolnexus/ag-ui": fileURLToPath(new URL("./src/ag-ui/index.ts", import.meta.url)),
  "toolnexus/ai-sdk": fileURLToPath(new URL("./src/ai-sdk/index.ts", import.meta.url)),
  "toolnexus/widget": fileURLToPath(new URL("./src/widget/index.ts", import.meta.url)),
  "toolnexus/react": fileURLToPath(new URL("./src/react/index.ts", import.meta.url)),
  "toolnexus/page": fileURLToPath(new URL("./src/page/index.ts", import.meta.url)),
  "toolnexus/storage": fileURLToPath(new URL("./src/storage/index.ts", import.meta.url)),
  toolnexus: fileURLToPath(new URL("./src/index.ts", import.meta.url)),
};
const behaviour = "test/behaviour/**/*.test.ts";

export default defineConfig({
  resolve: { alias },
  test: {
    globalSetup: ["./test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: [behaviour, "test/node/**/*.test.ts", "test/node/**/*.test.tsx"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: [behaviour, "test/browser/**/*.test.ts", "test/browser/**/*.test.tsx"],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
      {
        extends: true,
        plugins: [cloudflareTest({ main: "./examples/worker/demo.ts", wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "workers",
          include: [behaviour, "test/workers/**/*.test.ts"],
        },
      },
    ],
  },
});
