// The React hook's server-render test, run against React 18 from this folder's own node_modules: `react` and
// `react-dom` (and their subpaths, e.g. react-dom/server) resolve here, for the test and the hook alike.
// Run from the repository root: vitest run --config test/react18/vitest.config.ts
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("../.."),
  resolve: {
    alias: {
      react: here("./node_modules/react"),
      "react-dom": here("./node_modules/react-dom"),
      "toolnexus/react": here("../../src/react/index.ts"),
      "toolnexus/page": here("../../src/page/index.ts"),
      toolnexus: here("../../src/index.ts"),
    },
  },
  test: {
    name: "react18",
    environment: "node",
    include: ["test/node/react-ssr.test.tsx", "test/react18/*.test.ts"],
  },
});
