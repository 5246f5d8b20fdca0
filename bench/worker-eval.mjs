// 6. A Worker's startup cost in code: the Worker case of the packed package (createClient +
// createRunHandler + durableObjectStorage, bundled as size-packed bundles it) beside an `ai` 7 Worker
// (streamText + the OpenAI provider, bundled the same way from bench/next), each compiled and evaluated
// as a fresh module in this one process, alternating. Every round imports a new copy of the source (a
// unique trailing comment), so no compile cache serves it.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./ours.mjs";
import { alternate, fmtBytes, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";
import { bundle, install } from "./size-packed.mjs";

const OURS = "toolnexus Worker (packed)";
const AI = "`ai` 7 streamText Worker";
/** DESIGN's goal: the Worker compiles and evaluates in at most a tenth of the time an `ai` Worker does. */
const GOAL = 0.1;

const OURS_CODE = `export { createClient, createRunHandler, durableObjectStorage } from "toolnexus";`;
const AI_CODE = `export { streamText } from "ai";\nexport { createOpenAI } from "@ai-sdk/openai";`;

let copies = 0;
/** Compiles and evaluates `source` as a module no earlier round has seen. */
const evaluate = (source) => {
  const text = `${source}\n//# round ${copies++}`;
  return import(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`);
};

export async function bench({ smoke }) {
  const next = join(root, "bench/next");
  if (!existsSync(join(next, "node_modules/ai")))
    throw new Error("bench/next has no ai installed: the ai 7 Worker cannot be bundled");
  const { dir, project } = install();
  let ours;
  try {
    ours = Buffer.from(await bundle(project, OURS_CODE)).toString("utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ai = Buffer.from(await bundle(next, AI_CODE)).toString("utf8");
  const samples = await alternate(
    [
      { name: OURS, fn: () => evaluate(ours).then(() => 1) },
      { name: AI, fn: () => evaluate(ai).then(() => 1) },
    ],
    smoke ? { warmup: 0, repeats: 1 } : { warmup: 3, repeats: 30 },
  );
  const s = { ours: stats(samples[OURS]), ai: stats(samples[AI]) };
  const share = s.ours.median / s.ai.median;
  const gz = (code) => fmtBytes(gzipSync(code, { level: 9 }).length);
  const text = [
    "Each Worker bundled by esbuild (minify, ESM, browser), then compiled and evaluated as a fresh ES module in one Node process, the two alternating (median, p25–p75):",
    "",
    table(
      ["Worker", "Compile + evaluate", "gzip"],
      [
        [OURS, fmtSpread(s.ours), gz(ours)],
        [AI, fmtSpread(s.ai), gz(ai)],
      ],
    ),
    "",
    `toolnexus / ai: **${ratio(s.ours.median, s.ai.median)}** (goal ≤ ${GOAL}×).`,
  ].join("\n");
  return {
    id: "worker-eval",
    title: "6. A Worker's compile + evaluate time beside an `ai` 7 Worker",
    goals: [
      {
        goal: `the Worker compiles and evaluates in ≤ ${GOAL}× an \`ai\` 7 streamText Worker's time`,
        measured: ratio(s.ours.median, s.ai.median),
        met: share <= GOAL,
      },
    ],
    text,
    results: { oursMs: s.ours.median, aiMs: s.ai.median, share },
    checks: [
      {
        name: "worker-eval: both Workers compile and evaluate",
        ok: isMeasured(s.ours.median) && isMeasured(s.ai.median),
        detail: JSON.stringify(s),
      },
    ],
  };
}
