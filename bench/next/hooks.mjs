// Module resolution hooks for the benchmark run on the newest peers: a bare import of a peer package
// (ai, @ai-sdk/openai|mcp|google|anthropic|otel, @openai/agents, eventsource-parser, zod) from the benchmarks' own files resolves
// from bench/next/node_modules instead of the project's. Imports made inside packages are left alone, so
// each peer keeps its own dependency tree. Registered by ./register.mjs.
const PEERS = /^(?:ai|@ai-sdk\/(?:openai|mcp|google|anthropic|otel)|@openai\/agents|eventsource-parser|zod)(?:\/|$)/;
const HERE = new URL("./package.json", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (PEERS.test(specifier) && !context.parentURL?.includes("/node_modules/"))
    return nextResolve(specifier, { ...context, parentURL: HERE });
  return nextResolve(specifier, context);
}
