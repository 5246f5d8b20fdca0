// 8. Telemetry: what `toolnexus/otel` costs. Loop overhead per turn of the three-turn script (bench/loop.mjs)
// with telemetry off, with a no-op tracer (@opentelemetry/api with no provider registered) and with the SDK's
// in-memory exporter (every span kept, then cleared); and toolnexus/otel's size beside @ai-sdk/otel's, bundled
// as bench/size.mjs bundles (esbuild, browser platform, minified, gzip -9) with what the host already has —
// the SDK core (toolnexus / ai) and @opentelemetry/api — left out, then with the api bundled in.
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { loadOursWithOtel, peersRoot, root } from "./ours.mjs";
import { oursThreeTurns } from "./peers.mjs";
import { alternate, fmtBytes, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const TURNS = 3;

/** The three ways one client runs the script. `spans()` counts what the in-memory exporter kept. */
async function participants(tn) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const memory = tn.otelTelemetry({ tracer: provider.getTracer("bench") });
  const noop = tn.otelTelemetry({ tracer: trace.getTracer("bench") });
  return {
    exporter,
    list: [
      { name: "telemetry off", ...(await oursThreeTurns(tn)) },
      { name: "no-op tracer", ...(await oursThreeTurns(tn, { telemetry: noop })) },
      { name: "in-memory exporter", ...(await oursThreeTurns(tn, { telemetry: memory })) },
    ],
  };
}

async function loopOverhead(smoke) {
  const tn = await loadOursWithOtel();
  const { exporter, list } = await participants(tn);
  const checks = [];
  for (const p of list) checks.push({ name: `otel: ${p.name} completes the script`, ok: p.check(await p.run()) });
  // one run: invoke_agent, three chat spans and two execute_tool spans
  checks.push({
    name: "otel: the in-memory exporter got 6 spans per run",
    ok: exporter.getFinishedSpans().length === 6,
  });
  const runs = smoke ? 2 : 50;
  const cases = list.map((p) => ({
    name: p.name,
    fn: async () => {
      for (let i = 0; i < runs; i++) await p.run();
      exporter.reset(); // what was kept is not what is measured
      return runs * TURNS;
    },
  }));
  const time = await alternate(cases, smoke ? { warmup: 0, repeats: 1 } : { warmup: 5, repeats: 30 });
  const results = Object.fromEntries(list.map((p) => [p.name, stats(time[p.name])]));
  for (const p of list) checks.push({ name: `otel: ${p.name} has numbers`, ok: isMeasured(results[p.name].median) });
  return { results, checks, runs };
}

/** toolnexus/otel's own code: the core it imports (`../index`) stays an import, as in the published entry. */
const OURS = {
  name: "toolnexus/otel",
  contents: `export { otelTelemetry } from ${JSON.stringify(join(root, "src/otel/index.ts"))};`,
  resolveDir: root,
  core: /^\.\.\/index$/,
};
const THEIRS = {
  name: "@ai-sdk/otel",
  contents: `export { OpenTelemetry } from "@ai-sdk/otel";`,
  resolveDir: peersRoot,
  core: /^(?:ai|@ai-sdk\/provider(?:-utils)?)(?:\/|$)/,
};

async function gzipOf(entry, withApi) {
  const leaveOut = [entry.core, ...(withApi ? [] : [/^@opentelemetry\/api(?:\/|$)/])];
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    plugins: [
      {
        name: "what-the-host-has",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            leaveOut.some((re) => re.test(args.path)) ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

async function sizes() {
  const out = {};
  for (const entry of [OURS, THEIRS]) {
    try {
      out[entry.name] = { own: await gzipOf(entry, false), withApi: await gzipOf(entry, true) };
    } catch (error) {
      out[entry.name] = { error: String(error?.message ?? error).split("\n")[0] };
    }
  }
  return out;
}

export async function bench({ smoke }) {
  const { results, checks, runs } = await loopOverhead(smoke);
  const off = results["telemetry off"].median;
  const rows = Object.entries(results).map(([name, r]) => [name, `**${fmtSpread(r)}**`, ratio(r.median, off)]);
  const size = await sizes();
  checks.push({ name: "otel: toolnexus/otel has a size", ok: isMeasured(size["toolnexus/otel"].own) });
  const sizeRow = (name) => {
    const s = size[name];
    if (s.error) return [name, "not installed here (bench/next has it)", "—"];
    return [name, fmtBytes(s.own), fmtBytes(s.withApi)];
  };
  const text = [
    `${runs} runs per sample × 3 turns (2 tool calls + 1 answer) of bench/loop.mjs's script on \`createInProcessClient\`; time = sample time / turns.`,
    "",
    table(["Telemetry", "Time per turn", "/ off"], rows),
    "",
    "Sizes (esbuild, browser, minified, gzip -9). *Own code*: the SDK's core (toolnexus; `ai` and `@ai-sdk/provider*`) and `@opentelemetry/api` left out, as the host has them; *with the api*: `@opentelemetry/api` bundled in. toolnexus/otel imports nothing of the api at run time (it uses the host's tracer), so both of its figures are the same.",
    "",
    table(["Entry", "Own code", "With @opentelemetry/api"], [sizeRow("toolnexus/otel"), sizeRow("@ai-sdk/otel")]),
  ].join("\n");
  const memory = results["in-memory exporter"].median;
  const goals = [
    { goal: "Loop overhead per turn with an in-memory exporter / off (no budget)", measured: ratio(memory, off) },
  ];
  return { id: "otel", goals, title: `8. Telemetry (toolnexus/otel)${smoke ? " (smoke)" : ""}`, text, results, checks };
}
