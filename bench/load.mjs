// `npm run bench:load` (not part of `npm test` or `npm run bench`): 200 page sessions at once (prompt, halt,
// answer) against createRunHandler in one local workerd with Durable Object storage (./load-workerd.mjs), and
// 1,000 halted runs resumed at once on a
// real Postgres and a real Redis, each run by two racing clients, as a crowd of pages double-submitting
// would. Reports p50/p99 resume latency and fails unless every run finished (0 lost) and every answered
// tool ran exactly once (0 duplicate executions). Servers are throwaway ones on free 127.0.0.1 ports,
// started the way scripts/test-databases.mjs starts them and stopped whatever happens; a server whose
// binary is missing is reported as skipped. Bounded: RUNS runs, at most LIMIT_MS per database. Writes the
// tables to bench/LOAD.md (bench/run.mjs rewrites RESULTS.md whole, so the load figures live beside it).
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { createClient as redisClient } from "redis";
import { startPostgres, startRedis } from "../scripts/lib/databases.mjs";
import { workerdSessions } from "./load-workerd.mjs";
import { requireOurs } from "./ours.mjs";

const RUNS = 1_000;
const lines = [];
/** A line of the report: printed, and kept for bench/LOAD.md. */
const out = (line) => (lines.push(line), console.log(line));
const LIMIT_MS = 120_000;
const tn = await requireOurs(["createInProcessClient", "defineTool", "pending", "answerOutput", "createRunSession"]);

/** The tool every run halts on; `ran` counts its executions with an answer, per run. */
function approvalTool(ran) {
  return tn.defineTool({
    name: "deploy",
    description: "Deploys after approval",
    execute: async (_args, ctx) => {
      if (!ctx.answer) return tn.pending({ kind: "approval", id: "q", prompt: "Deploy?" });
      ran.set(ctx.runId, (ran.get(ctx.runId) ?? 0) + 1);
      return "deployed";
    },
  });
}

const client = (storage) =>
  tn.createInProcessClient({
    model: "m",
    storage,
    claimLeaseMs: LIMIT_MS,
    generate: ({ messages }) =>
      messages.some((m) => m.role === "tool") ? { content: "Deployed." } : { toolCalls: [{ name: "deploy" }] },
  });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n) => `${n.toFixed(1)} ms`;

/** Halts RUNS runs, then resumes every one of them from two clients at once; returns the figures. */
async function load(name, storage) {
  const ran = new Map();
  const tools = [approvalTool(ran)];
  const halted = [];
  for (let i = 0; i < RUNS; i += 100) {
    const batch = Array.from({ length: Math.min(100, RUNS - i) }, () =>
      client(storage).run("ship", { toolkit: tools }),
    );
    halted.push(...(await Promise.all(batch)).map((r) => r.runId));
  }
  const latencies = [];
  const started = performance.now();
  const resume = async (runId) => {
    const t = performance.now();
    try {
      return await client(storage).resume(runId, tn.answerOutput("q", "yes"), { toolkit: tools });
    } catch (error) {
      return { status: "refused", code: error?.code };
    } finally {
      latencies.push(performance.now() - t);
    }
  };
  const bounded = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`${name}: over ${LIMIT_MS} ms`)), LIMIT_MS).unref(),
  );
  const outcomes = await Promise.race([Promise.all(halted.flatMap((id) => [resume(id), resume(id)])), bounded]);
  const wall = performance.now() - started;
  const done = new Set(
    halted.filter((_, i) => [outcomes[2 * i], outcomes[2 * i + 1]].some((r) => r.status === "done")),
  );
  const refusals = outcomes.filter((r) => r.status === "refused");
  const lost = halted.filter((id) => !done.has(id)).length;
  const duplicates = halted.filter((id) => (ran.get(id) ?? 0) > 1).length;
  const unexpected = refusals.filter((r) => r.code !== "run_conflict").length;
  latencies.sort((a, b) => a - b);
  return { name, lost, duplicates, unexpected, p50: percentile(latencies, 50), p99: percentile(latencies, 99), wall };
}

async function withServer(name, start, use) {
  let server;
  try {
    server = await start();
  } catch (error) {
    return { name, skipped: error.message };
  }
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

const pages = await workerdSessions(tn);
out(
  "| page sessions at once | prompt → halt p50 | p99 | answer → done p50 | p99 | wall | lost | duplicate executions |",
);
out("| --- | --- | --- | --- | --- | --- | --- | --- |");
if (pages.skipped) out(`| ${pages.name} | skipped: ${pages.skipped} | | | | | | |`);
else
  out(
    `| ${pages.name} | ${ms(pages.p50)} | ${ms(pages.p99)} | ${ms(pages.resumeP50)} | ${ms(pages.resumeP99)} | ${ms(pages.wall)} | ${pages.lost} | ${pages.duplicates} |`,
  );
out("");

const results = [];
results.push(
  await withServer("postgresStorage (pg Pool)", startPostgres, async ({ url }) => {
    const pool = new pg.Pool({ connectionString: url, max: 50 });
    try {
      return await load("postgresStorage (pg Pool)", tn.postgresStorage({ client: pool }));
    } finally {
      await pool.end();
    }
  }),
);
results.push(
  await withServer("redisStorage (node-redis)", startRedis, async ({ url }) => {
    const redis = await redisClient({ url }).connect();
    try {
      return await load("redisStorage (node-redis)", tn.redisStorage({ client: redis }));
    } finally {
      await redis.quit();
    }
  }),
);

out(`| ${RUNS} runs × 2 racing resumes | p50 | p99 | wall | lost | duplicate executions |`);
out("| --- | --- | --- | --- | --- | --- |");
let failed = Boolean(pages.lost || pages.duplicates);
if (failed) console.error(`bench:load: a page session was lost (${pages.why ?? "its tool did not run once"})`);
for (const r of results) {
  if (r.skipped) {
    out(`| ${r.name} | skipped: ${r.skipped} | | | | |`);
    continue;
  }
  out(`| ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.wall)} | ${r.lost} | ${r.duplicates} |`);
  if (r.lost || r.duplicates || r.unexpected) failed = true;
}
if (failed) {
  console.error("bench:load: runs were lost, a tool ran twice, or a resume failed other than as a conflict");
  process.exitCode = 1;
}

const head = [
  "# Load (`npm run bench:load`)",
  "",
  `Node ${process.versions.node}, ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")} when it ended (other processes share the machine: latencies grow with it; the counts do not).`,
  "",
];
writeFileSync(new URL("./LOAD.md", import.meta.url), `${[...head, ...lines].join("\n")}\n`);
