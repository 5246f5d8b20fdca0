import { defineConfig, type Options } from "tsup";

// The bare `import "…"` lines in src/loop/engine.ts, src/conversation.ts and src/loop/translate-call.ts only
// shape chunks (they run no code: the package has no side effects); esbuild warns that it ignores them as
// imports, which is the point.
const quiet: Options["esbuildOptions"] = (options) => {
  options.logOverride = { ...options.logOverride, "ignored-bare-import": "silent" };
};

export default defineConfig([
  {
    // npm consumers: dependencies stay external so bundlers and runtimes dedupe them; code splitting keeps
    // the lazily loaded parts (provider wires, resume, translate, builtins) in their own chunks; `mcp` is the
    // toolnexus/mcp entry, which alone imports the MCP client (an optional peer dependency)
    entry: { index: "src/index.ts", mcp: "src/mcp/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
    splitting: true,
    esbuildOptions: quiet,
  },
  {
    // one self-contained file a page or a Deno script can import by URL
    entry: { toolnexus: "src/index.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    minify: true,
    splitting: false, // lazily loaded parts (provider wires, resume, translate, builtins) are inlined here
    target: "es2022",
    platform: "neutral",
    noExternal: [/.*/],
    outExtension: () => ({ js: ".js" }),
    esbuildOptions: quiet,
  },
]);
