import { defineConfig, type Options } from "tsup";

const builds: Options[] = [
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

/** A subpath entry built on its own, whose `../index` imports stay an import of the published ./index.js. */
function overTheCore(name: string, entry: string): Options {
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
          build.onResolve({ filter: /^\.\.\/index$/ }, () => ({ path: "./index.js", external: true }));
        },
      },
    ],
  };
}
