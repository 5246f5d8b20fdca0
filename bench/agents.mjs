// Agents (toolnexus/agents): what a question asked levels down costs, and what a delegation costs.
// (a) A three-level tree (each level delegates with `task`, the innermost deploys after an approval) halts
// and resumes, against a one-level one, each against the same tree whose tool needs no approval: what
// halting and resuming add. Beside it, @openai/agents on the same script: three agents nested by
// `asTool()`, the innermost tool `needsApproval`, resumed through a `RunState` JSON round trip.
// (b) A `task` delegation (a child that answers at once) against one loop turn (a plain tool call).
import { loadOursWithAgents } from "./ours.mjs";
import { agentsNested } from "./peers.mjs";
import { alternate, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const ASK = "Deploy to prod.";
const SCHEMA = { type: "object", properties: { target: { type: "string" } }, required: ["target"] };
const NEEDS = ["agent", "createInProcessClient", "defineTool", "memoryStorage", "answerApproval"];

const last = (messages) => messages[messages.length - 1];

/** memoryStorage that `fresh()` swaps for an empty one, so kept outcomes do not pile up across samples. */
function swappable(tn) {
  let inner = tn.memoryStorage();
  return {
    storage: {
      capabilities: inner.capabilities,
      get: (k) => inner.get(k),
      set: (k, v, o) => inner.set(k, v, o),
      delete: (k) => inner.delete(k),
      compareAndSet: (k, e, v, o) => inner.compareAndSet(k, e, v, o),
    },
    fresh: () => {
      inner = tn.memoryStorage();
    },
  };
}

/** `levels` agents, each delegating to the one below with `task`; the innermost deploys (after an approval). */
function oursTree(tn, levels, approval) {
  let deployed = 0;
  const deploy = tn.defineTool({
    name: "deploy",
    description: "Deploys after a human approves",
    inputSchema: SCHEMA,
    needsApproval: approval,
    execute: async ({ target }) => (deployed++, `deployed to ${target}`),
  });
  let top = tn.agent("level1", { does: "deploys", tools: [deploy], model: "m1" });
  for (let i = 2; i <= levels; i++) top = tn.agent(`level${i}`, { does: "delegates", team: [top], model: `m${i}` });
  const { storage, fresh } = swappable(tn);
  const client = tn.createInProcessClient({
    model: "m1",
    storage,
    generate: ({ messages, model }) => {
      const i = Number(model.slice(1));
      if (last(messages).role === "tool") return { content: i === 1 ? "Deployed." : `Done ${i}.` };
      if (i === 1) return { toolCalls: [{ id: "call_deploy", name: "deploy", arguments: { target: "prod" } }] };
      return { toolCalls: [{ id: `call_${i}`, name: "task", arguments: { agent: `level${i - 1}`, prompt: ASK } }] };
    },
  });
  return {
    async run() {
      const first = await top.run(ASK, { client });
      if (!approval) return first;
      if (first.status !== "pending") throw new Error(`expected a pending run, got ${first.status}`);
      return top.resume(first.runId, tn.answerApproval(first.pending.id), { client });
    },
    fresh,
    deployed: () => deployed,
    check: (done) => done.status === "done" && done.text === (levels === 1 ? "Deployed." : `Done ${levels}.`),
  };
}

/** A lead whose first turn calls `what` (`task` to a child that answers at once, or a plain tool), then answers. */
function oursTurns(tn, what) {
  const lookup = tn.defineTool({ name: "lookup", description: "Looks it up", execute: async () => "found" });
  const child = tn.agent("child", { does: "answers at once", model: "m-child" });
  const lead = tn.agent("lead", { does: "leads", model: "m-lead", tools: [lookup], team: [child] });
  const { storage, fresh } = swappable(tn);
  const call = {
    task: { id: "call_task", name: "task", arguments: { agent: "child", prompt: "look it up" } },
    tool: { id: "call_lookup", name: "lookup", arguments: {} },
  }[what];
  const client = tn.createInProcessClient({
    model: "m-lead",
    storage,
    generate: ({ messages, model }) => {
      if (model === "m-child") return { content: "found" };
      if (last(messages).role === "tool") return { content: "Found." };
      return { toolCalls: [call] };
    },
  });
  return {
    run: () => lead.run(ASK, { client }),
    fresh,
    check: (done) => done.status === "done" && done.text === "Found." && done.turns === 2,
  };
}

const T3 = "toolnexus, 3 levels, halt → resume";
const T3_PLAIN = "toolnexus, 3 levels, no approval";
const T1 = "toolnexus, 1 level, halt → resume";
const T1_PLAIN = "toolnexus, 1 level, no approval";
const A3 = "@openai/agents, 3 levels, RunState round trip";
const A3_PLAIN = "@openai/agents, 3 levels, no approval";
const TASK = "toolnexus, a `task` delegation + answer";
const TOOL = "toolnexus, a tool call + answer";

/**
 * Each case's participant, whether one operation deploys once (the halting ones: exactly once), and its
 * operations per sample (fewer for the slow ones, so every sample lasts about as long).
 */
function participants(tn) {
  return [
    [T3, oursTree(tn, 3, true), true, 20],
    [T3_PLAIN, oursTree(tn, 3, false), true, 40],
    [T1, oursTree(tn, 1, true), true, 40],
    [T1_PLAIN, oursTree(tn, 1, false), true, 200],
    [A3, agentsNested(3, true), true, 4],
    [A3_PLAIN, agentsNested(3, false), true, 10],
    [TASK, oursTurns(tn, "task"), false, 200],
    [TOOL, oursTurns(tn, "tool"), false, 400],
  ];
}

/** The median over rounds of f(round's samples): paired within a round, so the machine's drift cancels. */
const paired = (samples, f) => stats(samples[T3].map((_, i) => f((name) => samples[name][i])));

export async function bench({ smoke }) {
  const tn = await loadOursWithAgents();
  const gone = NEEDS.filter((n) => typeof tn[n] !== "function");
  if (gone.length) throw new Error(`the sources do not export ${gone.join(", ")}`);
  const all = participants(tn);
  const checks = [];
  for (const [name, p, deploys] of all) {
    const before = p.deployed?.() ?? 0;
    const ok = p.check(await p.run()) && (!deploys || p.deployed() - before === 1);
    checks.push({ name: `agents: ${name} completes its script${deploys ? ", deploying once" : ""}`, ok });
  }
  const cases = all.map(([name, p, , ops]) => ({
    name,
    fn: async () => {
      const reps = smoke ? 1 : ops;
      p.fresh?.();
      for (let i = 0; i < reps; i++) await p.run();
      return reps;
    },
  }));
  const samples = await alternate(cases, smoke ? { warmup: 0, repeats: 1 } : { warmup: 3, repeats: 21 });
  const r = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
  for (const [name] of all) checks.push({ name: `agents: ${name} has numbers`, ok: isMeasured(r[name].median) });
  const added3 = (s) => s(T3) - s(T3_PLAIN);
  const threeVsOne = paired(samples, (s) => added3(s) / (s(T1) - s(T1_PLAIN)));
  const vsAgents = paired(samples, (s) => added3(s) / (s(A3) - s(A3_PLAIN)));
  // one loop turn as the loop benchmark counts it (a run's time / its turns): the tool call + answer run / 2
  const delegation = paired(samples, (s) => (s(TASK) - s(TOOL)) / (s(TOOL) / 2));
  const spread = (x) => `**${ratio(x.median, 1)}** (${ratio(x.p25, 1)}–${ratio(x.p75, 1)})`;
  const text = [
    "One operation of a halting case = `top.run(prompt)` → the innermost tool's approval halts every level → " +
      "`top.resume(runId, answerApproval(id))` (toolnexus: each level's run stored by value in `memoryStorage`, the answer routed by `data.path`) — " +
      "or on @openai/agents, three agents nested by `asTool()`, the innermost tool `needsApproval`: `state.toString()` → `RunState.fromString()` → `approve` → `run(agent, state)`. " +
      "The *no approval* cases are the same trees whose tool runs at once: the difference is what halting and resuming add. " +
      "The delegation cases: a lead whose first turn delegates with `task` to a child that answers at once, or calls a plain tool, then answers; " +
      "a delegation = (delegation + answer) − (tool call + answer): spawning the child, its run of one turn, its result; one loop turn = (tool call + answer) / 2, " +
      "a run's time per turn as the loop benchmark counts it. Ratios are paired: computed within each round from its back-to-back samples, then the median (p25–p75) over rounds.",
    "",
    table(
      ["Case", "Time per operation"],
      all.map(([name]) => [name, fmtSpread(r[name])]),
    ),
    "",
    table(
      ["Ratio (paired)", "Measured", "Goal"],
      [
        ["3-level halt→resume adds / 1-level adds", spread(threeVsOne), "≤ 3×"],
        ["toolnexus 3-level adds / @openai/agents 3-level adds", spread(vsAgents), "≤ 0.2×"],
        ["a `task` delegation / one loop turn", spread(delegation), "≤ 1.5×"],
      ],
    ),
  ].join("\n");
  const goals = [
    {
      goal: "A three-level halt → resume adds ≤ 3× what a one-level one adds",
      measured: ratio(threeVsOne.median, 1),
      met: threeVsOne.median <= 3,
    },
    {
      goal: "A three-level halt → resume adds ≤ 0.2× what @openai/agents' nested RunState round trip adds",
      measured: ratio(vsAgents.median, 1),
      met: vsAgents.median <= 0.2,
    },
    {
      goal: "A `task` delegation ≤ 1.5× one loop turn's overhead",
      measured: ratio(delegation.median, 1),
      met: delegation.median <= 1.5,
    },
  ];
  return { id: "agents", title: "Agents: a nested halt → resume, and a delegation", text, results: r, checks, goals };
}
