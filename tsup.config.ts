import { defineConfig, type Options } from "tsup";

// No `clean` here: the builds below run in parallel, and one build's clean could delete what another had
// already written (a missing dist/react.d.ts once). `npm run build` empties dist/ once before tsup starts.
const builds: Options[] = [
  {
    // npm consumers: dependencies stay external so bundlers and runtimes dedupe them; code splitting keeps
    // the lazily loaded parts (provider wires, resume, translate, builtins) in their own chunks. toolnexus/page
    // is an entry of the same build: the page session is one copy, in a chunk both import, and dist/page.js
    // imports only the page's own chunks (a page importing it by URL downloads none of the loop or the wires).
    // toolnexus/storage, toolnexus/ag-ui and toolnexus/ai-sdk too: one copy of the adapters, and the endpoints
    // share the run handler's code (the exchange, its log, the owner) with the core in common chunks
    entry: {
      index: "src/index.ts",
      page: "src/page/index.ts",
      storage: "src/storage/index.ts",
      "ag-ui": "src/ag-ui/index.ts",
      "ai-sdk": "src/ai-sdk/index.ts",
    },
    format: ["esm"],
    dts: { entry: { index: "src/index.ts" } },
    sourcemap: true,
    target: "es2022",
    platform: "neutral",
    splitting: true,
  },
  // dist/page.d.ts on its own, so dist/index.d.ts stays one self-contained file
  { entry: { page: "src/page/index.ts" }, format: ["esm"], dts: { only: true }, target: "es2022" },
  // toolnexus/storage, toolnexus/ag-ui and toolnexus/ai-sdk the same way: entries of the build above (one copy
  // of the adapters and of the run handler's code, in chunks the root shares), their declarations apart
  { entry: { storage: "src/storage/index.ts" }, format: ["esm"], dts: { only: true }, target: "es2022" },
  { entry: { "ag-ui": "src/ag-ui/index.ts" }, format: ["esm"], dts: { only: true }, target: "es2022" },
  { entry: { "ai-sdk": "src/ai-sdk/index.ts" }, format: ["esm"], dts: { only: true }, target: "es2022" },
  // toolnexus/mcp in a build of its own, so dist/index.d.ts stays one self-contained file (a Deno URL import
  // and JSR read it alone); the core's own code is shared through the package's published entry
  overTheCore("mcp", "src/mcp/index.ts"),
  // toolnexus/otel the same way: the core knows only the telemetry seam, and @opentelemetry/api stays the host's
  overTheCore("otel", "src/otel/index.ts"),
  // toolnexus/agents: sub-agents over the published core; the answers and the errors come from ./index.js, so
  // an agent's errors are the core's classes
  overTheCore("agents", "src/agents/index.ts", /^\.\.\/(index|answer|pending|errors)$/),
  // toolnexus/testing: its own file over the published core, so the core bundle holds no testing code and
  // the testing code shares the user's copy of the core
  overTheCore("testing", "src/testing/index.ts"),
  // toolnexus/widget: the page's chat element over toolnexus/page; what it takes from the page side (the run
  // session, the answer helpers) it imports from ./page.js, so a page loads one copy of them and nothing more
  overTheCore("widget", "src/widget/index.ts", /^\.\.\/page(\/index)?$/, "./page.js"),
  // toolnexus/react: the hook over toolnexus/page (./page.js); React stays the page's own
  overTheCore("react", "src/react/index.ts", /^\.\.\/page(\/index)?$/, "./page.js"),
  {
    // one self-contained file a page or a Deno script can import by URL; its first line points Deno (and
    // JSR) at the declarations the build above writes beside it, so a URL import is typed
    entry: { toolnexus: "src/index.ts" },
    banner: { js: '// @ts-self-types="./index.d.ts"' },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    minify: true,
    splitting: false, // lazily loaded parts (provider wires, resume, translate, builtins) are inlined here
    target: "es2022",
    platform: "neutral",
    noExternal: [/.*/],
    outExtension: () => ({ js: ".js" }),
  },
  {
    // the chat element as one self-contained file for a page that imports it by URL, as the demo does
    entry: { "toolnexus-widget": "src/widget/index.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    minify: true,
    target: "es2022",
    platform: "browser",
    noExternal: [/.*/],
    outExtension: () => ({ js: ".js" }),
  },
];

// every build's source maps leave out the sources themselves (`sourcesContent`): they still map a stack
// trace to a file and line, and the tarball does not carry a second copy of the code
export default defineConfig(builds.map(withoutSourcesInMaps));

function withoutSourcesInMaps(options: Options): Options {
  return {
    ...options,
    esbuildOptions(esbuild, context) {
      options.esbuildOptions?.(esbuild, context);
      esbuild.sourcesContent = false;
    },
  };
}

/** A subpath entry built on its own, whose imports of the core (`../index`, or `core`) stay an import of the published `to`. */
function overTheCore(name: string, entry: string, core = /^\.\.\/index$/, to = "./index.js"): Options {
  return {
    entry: { [name]: entry },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    target: "es2022",
    platform: "neutral",
    esbuildPlugins: [
      {
        name: `${name}-over-the-core`,
        setup(build) {
          build.onResolve({ filter: core }, () => ({ path: to, external: true }));
        },
      },
    ],
  };
}
