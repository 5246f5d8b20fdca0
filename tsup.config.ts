import { defineConfig } from "tsup";

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
  },
]);
