// 7. One MCP tool call through the loop: the same script on both sides — the model's first turn calls the MCP
// test server's `echo` (test/mcp/servers/, served on 127.0.0.1 in this process), its second turn answers — with
// toolnexus (`createInProcessClient` + `connectMcp`) and with `ai` (`generateText` + ai's own mock model +
// `@ai-sdk/mcp`'s `createMCPClient` over HTTP). Each side connects once, outside the timing. Beside the runs,
// the bare `tools/call` of each MCP client (the tool's own `execute`, no loop), so what the loop adds shows.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, stepCountIs } from "ai";
import * as aiTest from "ai/test";
import { createMCPClient } from "@ai-sdk/mcp";
import { loadOursWithMcp, root } from "./ours.mjs";
import { AI_MOCK } from "./peers.mjs";
import { alternate, fmtMs, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const PROMPT = "Ask the server to echo hello";
const ECHOED = "echo: hello";
const FINAL = `The server said: ${ECHOED}`;
const ARGS = { text: "hello" };

/** toolnexus: the scripted model calls `bench_echo`, then answers with what it returned. */
async function ours(url) {
  const tn = await loadOursWithMcp();
  const conn = await tn.connectMcp({ name: "bench", url });
  if (conn.status !== "connected") throw conn.error;
  const toolkit = await tn.createToolkit({ tools: conn.tools });
  const client = tn.createInProcessClient({
    model: "scripted",
    generate: ({ messages }) => {
      const result = messages.find((m) => m.role === "tool");
      if (result) return { content: String(result.content).includes(ECHOED) ? FINAL : "no echo" };
      return { toolCalls: [{ id: "call_1", name: "bench_echo", arguments: ARGS }] };
    },
  });
  const echo = conn.tools.find((t) => t.name === "bench_echo");
  return {
    run: () => client.run(PROMPT, { toolkit }),
    check: (r) => r.status === "done" && r.text === FINAL && r.toolCalls.length === 1,
    bare: () => echo.execute(ARGS, {}),
    checkBare: (r) => r.output === ECHOED,
    close: () => conn.close(),
  };
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** ai + @ai-sdk/mcp: the same two turns with ai's own mock model. */
async function theirs(url) {
  const mcp = await createMCPClient({ transport: { type: "http", url } });
  const tools = await mcp.tools();
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the mock class is V4 or V3, whichever this ai has
  const model = new aiTest[AI_MOCK]({
    doGenerate: async ({ prompt }) => {
      const result = prompt.find((m) => m.role === "tool");
      if (result) {
        const text = JSON.stringify(result.content).includes(ECHOED) ? FINAL : "no echo";
        return {
          content: [{ type: "text", text }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      }
      const call = { type: "tool-call", toolCallId: "call_1", toolName: "echo", input: JSON.stringify(ARGS) };
      return { content: [call], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
    },
  });
  const options = { toolCallId: "bare", messages: [] };
  return {
    run: () => {
      model.doGenerateCalls.length = 0; // the mock records every call; don't let that grow across runs
      return generateText({ model, prompt: PROMPT, tools, stopWhen: stepCountIs(5) });
    },
    check: (r) => r.text === FINAL && r.steps.flatMap((s) => s.toolResults).length === 1,
    bare: () => tools.echo.execute(ARGS, options),
    checkBare: (r) => JSON.stringify(r).includes(ECHOED),
    close: () => mcp.close(),
  };
}

export async function bench({ smoke }) {
  const { serveTestServer } = await import(pathToFileURL(join(root, "test/mcp/servers/serve-node.mjs")).href);
  const srv = await serveTestServer();
  const sides = [];
  try {
    sides.push({ name: "toolnexus", ...(await ours(srv.url)) }, { name: "ai", ...(await theirs(srv.url)) });
    const checks = [];
    for (const s of sides) {
      checks.push({
        name: `mcp: ${s.name} completes the script (one MCP tool call, then the answer)`,
        ok: s.check(await s.run()),
      });
      checks.push({ name: `mcp: ${s.name}'s bare tools/call answers`, ok: s.checkBare(await s.bare()) });
    }
    const runs = smoke ? 1 : 20; // runs per sample
    const batch = (fn) => async () => {
      for (let i = 0; i < runs; i++) await fn();
      return runs;
    };
    const cases = sides.flatMap((s) => [
      { name: `${s.name} run`, fn: batch(s.run) },
      { name: `${s.name} bare`, fn: batch(s.bare) },
    ]);
    const time = await alternate(cases, smoke ? { warmup: 0, repeats: 1 } : { warmup: 5, repeats: 30 });
    const r = Object.fromEntries(cases.map((c) => [c.name, stats(time[c.name])]));
    for (const c of cases) checks.push({ name: `mcp: ${c.name} has numbers`, ok: isMeasured(r[c.name].median) });
    return report(r, runs, smoke, checks);
  } finally {
    for (const s of sides) await s.close().catch(() => {});
    await srv.close();
  }
}

function report(r, runs, smoke, checks) {
  const loopOf = (name) => r[`${name} run`].median - r[`${name} bare`].median;
  const rows = ["toolnexus", "ai"].map((name) => [
    name,
    `**${fmtSpread(r[`${name} run`])}**`,
    fmtSpread(r[`${name} bare`]),
    loopOf(name) > 0 ? fmtMs(loopOf(name)) : "within the noise (bare median ≥ run median)",
  ]);
  const runRatio = ratio(r["toolnexus run"].median, r["ai run"].median);
  const text = [
    `${runs} runs per sample; one run = the model's tool call, one \`tools/call\` over HTTP to the MCP test server on 127.0.0.1 ` +
      "(server SDK 2.4, in this process), the model's final answer. Model in process on both sides, no other network.",
    "",
    table(
      [
        "SDK",
        "One run (1 MCP tool call + answer)",
        "Bare tools/call, no loop",
        "What the loop adds (median run − bare)",
      ],
      rows,
    ),
    "",
    `Ours / ai per run: **${runRatio}**; bare tools/call ours / ai: ${ratio(r["toolnexus bare"].median, r["ai bare"].median)}.`,
    "",
    "toolnexus: `connectMcp` (the MCP SDK client 2.4, which negotiates 2026-07-28 with this server) + `createInProcessClient`. " +
      `\`ai\`: \`createMCPClient({ transport: { type: "http" } })\` from \`@ai-sdk/mcp\` (its own client: 1.x speaks the session-era versions, 2.x also 2026-07-28) + \`generateText\` with \`${AI_MOCK}\`. ` +
      "The server's time is in both numbers alike; the bare row is each MCP client alone.",
  ].join("\n");
  const goals = [{ goal: "One MCP tool call through the loop, ours / ai (no budget)", measured: runRatio }];
  return {
    id: "mcp",
    goals,
    title: `7. One MCP tool call through the loop${smoke ? " (smoke)" : ""}`,
    text,
    results: r,
    checks,
  };
}
