// 2. Loop overhead: the same three-turn tool-calling script (call weather, call weather, answer)
// against an in-process model, many runs per sample, the three SDKs alternating. Reports time and
// bytes allocated per turn, and ours as a ratio of each peer.
import { requireOurs } from "./ours.mjs";
import { aiThreeTurns, agentsThreeTurns, oursThreeTurns } from "./peers.mjs";
import { alternate, alternateAllocated, fmtBytes, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const TURNS = 3;
const NEEDS = ["createInProcessClient", "createToolkit", "defineTool"];

export async function bench({ smoke }) {
  const tn = await requireOurs(NEEDS);
  const participants = [
    { name: "toolnexus", ...(await oursThreeTurns(tn)) },
    { name: "ai", ...aiThreeTurns() },
    { name: "@openai/agents", ...agentsThreeTurns() },
  ];

  const checks = [];
  for (const p of participants) {
    const ok = p.check(await p.run());
    checks.push({ name: `loop: ${p.name} completes the three-turn script`, ok });
  }

  const runs = smoke ? 2 : 50; // runs per sample (many short samples: a busy neighbour spoils fewer of them)
  const batch = (p) => async () => {
    for (let i = 0; i < runs; i++) await p.run();
    return runs * TURNS;
  };
  const cases = participants.map((p) => ({ name: p.name, fn: batch(p) }));
  const time = await alternate(cases, smoke ? { warmup: 0, repeats: 1 } : { warmup: 5, repeats: 30 });
  const bytes = await alternateAllocated(cases, smoke ? 1 : 5);

  const results = Object.fromEntries(
    participants.map((p) => [p.name, { time: stats(time[p.name]), bytes: stats(bytes[p.name]) }]),
  );
  const ours = results.toolnexus;
  const rows = participants.map(({ name }) => {
    const r = results[name];
    return [
      name,
      `**${fmtSpread(r.time)}**`,
      fmtSpread(r.bytes, fmtBytes),
      ratio(ours.time.median, r.time.median),
      ratio(ours.bytes.median, r.bytes.median),
    ];
  });
  for (const p of participants)
    checks.push({
      name: `loop: ${p.name} has numbers`,
      ok: isMeasured(results[p.name].time.median) && isMeasured(results[p.name].bytes.median),
    });

  const peers = participants.filter((p) => p.name !== "toolnexus").map((p) => results[p.name].time.median);
  const fastest = Math.min(...peers);
  const goal = `Ours per turn / faster peer per turn: **${ratio(ours.time.median, fastest)}** (goal ≤ 0.5×: ${ours.time.median <= fastest / 2 ? "met" : "**missed**"}).`;
  const text = [
    `${smoke ? runs : runs.toLocaleString("en")} runs per sample × 3 turns (2 tool calls + 1 answer), model in process, no network; ` +
      "time = sample time / turns; memory = bytes allocated on the V8 heap per turn (garbage included, via the GC profiler).",
    "",
    table(["SDK", "Time per turn", "Allocated per turn", "Ours / this (time)", "Ours / this (memory)"], rows),
    "",
    goal,
    "",
    "Setup is outside the timing for everyone: one client/agent and toolkit, reused; the scripted model answers from the transcript it is sent. " +
      "`ai`: `generateText` + `MockLanguageModelV3` (`ai/test`), `stopWhen: stepCountIs(10)`. `@openai/agents`: `run(agent, prompt)` with a fake `Model`, tracing disabled. " +
      "toolnexus: `createInProcessClient` (an in-process `fetch`: each turn still builds and parses the OpenAI JSON body, as a real provider call does). All tools take a plain JSON Schema.",
  ].join("\n");
  const fastestName = participants.find((p) => p.name !== "toolnexus" && results[p.name].time.median === fastest)?.name;
  const goals = [
    {
      goal: "Loop overhead per turn ≤ 0.5× the faster peer's",
      measured: `${ratio(ours.time.median, fastest)} of ${fastestName}'s`,
      met: ours.time.median <= fastest / 2,
    },
  ];
  return {
    id: "loop",
    goals,
    title: "2. Loop overhead, three-turn tool-calling script (goal: ≤ 0.5× the faster peer)",
    text,
    results,
    checks,
  };
}
