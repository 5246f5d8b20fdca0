import { defineConfig } from "tsup";

export default defineConfig([
  {
    // npm consumers: dependencies stay external so bundlers and runtimes dedupe them
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    platform: "neutral",
  },
  {
    // one self-contained file a page or a Deno script can import by URL
    entry: { toolnexus: "src/index.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    minify: true,
    target: "es2022",
    platform: "neutral",
    noExternal: [/.*/],
    outExtension: () => ({ js: ".js" }),
  },
]);
