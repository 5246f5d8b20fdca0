import { defineConfig, type Options } from "tsup";

export default defineConfig([
  {
    // npm consumers: dependencies stay external so bundlers and runtimes dedupe them; code splitting keeps
    // the lazily loaded parts (provider wires, resume, translate, builtins) in their own chunks
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
    splitting: true,
  },
  // toolnexus/mcp in a build of its own, so dist/index.d.ts stays one self-contained file (a Deno URL import
  // and JSR read it alone); the core's own code is shared through the package's published entry
  overTheCore("mcp", "src/mcp/index.ts"),
  // toolnexus/testing: its own file over the published core, so the core bundle holds no testing code and
  // the testing code shares the user's copy of the core
  overTheCore("testing", "src/testing/index.ts"),
  // toolnexus/react: the hook over the published core; what it takes from the core (the run session) it
  // imports from ./index.js, so a page bundles one copy of it, and React stays the page's own
  overTheCore("react", "src/react/index.ts", /^\.\.\/(edge\/run-session|types)$/),
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
]);

/** A subpath entry built on its own, whose imports of the core (`../index`, or `core`) stay an import of the published ./index.js. */
function overTheCore(name: string, entry: string, core = /^\.\.\/index$/): Options {
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
          build.onResolve({ filter: core }, () => ({ path: "./index.js", external: true }));
        },
      },
    ],
  };
}
