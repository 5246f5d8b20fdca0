// Loads toolnexus for the benchmarks straight from the sources: esbuild bundles src/index.ts (plus
// the SSE parser from src/_internal/sse.ts, which the benchmarks need even if the root does not export it)
// into one temporary ESM file, dependencies included, and imports it. No dependency on a stale dist/.
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
/** Where the peers (ai, @openai/agents, eventsource-parser, …) are installed: bench/next/ under bench/next/register.mjs. */
export const peersRoot = process.env.TOOLNEXUS_BENCH_PEERS ?? root;

let loaded;
let loadedWithMcp;
let loadedWithOtel;
let loadedWithAgents;

/** The toolnexus module as built from the current sources (cached per process). */
export function loadOurs() {
  loaded ??= bundleAndImport();
  return loaded;
}

/**
 * The core and toolnexus/mcp (`connectMcp`) built together from the current sources (src/mcp's "../index" is the
 * entry's own copy of the core); the MCP SDK client stays an import of the installed package, as for a user.
 */
export function loadOursWithMcp() {
  loadedWithMcp ??= bundleAndImport(
    `export * from "./src/index.ts";\nexport { connectMcp } from "./src/mcp/index.ts";`,
    {
      name: "mcp-client-installed",
      setup(build) {
        const client = import.meta.resolve("@modelcontextprotocol/client");
        build.onResolve({ filter: /^@modelcontextprotocol\/client$/ }, () => ({ path: client, external: true }));
      },
    },
  );
  return loadedWithMcp;
}

/** The core and toolnexus/otel (`otelTelemetry`) built together from the current sources. */
export function loadOursWithOtel() {
  loadedWithOtel ??= bundleAndImport(
    `export * from "./src/index.ts";\nexport { otelTelemetry } from "./src/otel/index.ts";`,
  );
  return loadedWithOtel;
}

/** The core and toolnexus/agents (`agent`) built together from the current sources. */
export function loadOursWithAgents() {
  loadedWithAgents ??= bundleAndImport(
    `export * from "./src/index.ts";\nexport { agent } from "./src/agents/index.ts";`,
  );
  return loadedWithAgents;
}

async function bundleAndImport(entry, plugin) {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-bench-"));
  const outfile = join(dir, "toolnexus.mjs");
  try {
    const contents =
      entry ??
      [`export * from "./src/index.ts";`, `export { createSSEParser, parseSSE } from "./src/_internal/sse.ts";`].join(
        "\n",
      );
    await build({
      stdin: { contents, resolveDir: root, loader: "js", sourcefile: "bench-entry.js" },
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2022",
      outfile,
      logLevel: "silent",
      plugins: plugin ? [plugin] : [],
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Our module, after checking it exports every function a benchmark needs (throws naming the missing ones). */
export async function requireOurs(names) {
  const mod = await loadOurs();
  const gone = names.filter((n) => typeof mod[n] !== "function");
  if (gone.length) throw new Error(`the sources do not export ${gone.join(", ")} (src/index.ts, src/_internal/sse.ts)`);
  return mod;
}

/** Writes `text` to a fresh temporary file and returns its path (for entries handed to other tools). */
export function tempFile(name, text) {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-bench-"));
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
