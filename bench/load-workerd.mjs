// bench:load's page sessions: SESSIONS page sessions at once (createRunSession over fetch, as a page runs it)
// against createRunHandler in one local workerd (Miniflare from node_modules, 127.0.0.1 on a free port), runs
// halting into a SQLite-backed Durable Object. Each session sends a prompt, the run halts on an approval, the
// session answers it and the run finishes. The Worker counts the tool's executions with an answer per run.
import { build } from "esbuild";
import { Agent, fetch as undiciFetch } from "undici";
import { root } from "./ours.mjs";

const SESSIONS = 200;
const LIMIT_MS = 120_000;

const WORKER = `
import { createInProcessClient, createRunHandler, defineTool, durableObjectStorage, pending } from "./src/index.ts";
export { RunStoreObject } from "./src/index.ts";

const ran = new Map(); // runId → executions with an answer (one isolate serves every request)
const deploy = defineTool({
  name: "deploy",
  description: "Deploys after approval",
  execute: async (_args, ctx) => {
    if (!ctx.answer) return pending({ kind: "approval", id: "q", prompt: "Deploy?" });
    ran.set(ctx.runId, (ran.get(ctx.runId) ?? 0) + 1);
    return "deployed";
  },
});
const generate = ({ messages }) =>
  messages.some((m) => m.role === "tool") ? { content: "Deployed." } : { toolCalls: [{ name: "deploy" }] };
let handler;

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/stats") return Response.json(Object.fromEntries(ran));
    const storage = durableObjectStorage({ namespace: env.RUN_STORE });
    handler ??= createRunHandler({ client: createInProcessClient({ model: "m", storage, generate }), toolkit: [deploy] });
    return handler(request, ctx);
  },
};
`;

/**
 * A connection per request, as separate pages make them: Node's pooled fetch reuses a keep-alive socket that
 * workerd has just closed, and a POST sent on it fails with ECONNRESET (a client transport race, not a run's).
 */
const agent = new Agent({ pipelining: 0 });
const pageFetch = (url, init) => undiciFetch(url, { ...init, dispatcher: agent });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One page's session: prompt → halt → answer → done; its two latencies, its run, and whether it finished. */
async function pageSession(tn, endpoint) {
  const session = tn.createRunSession({ endpoint, storage: null, fetch: pageFetch });
  const t0 = performance.now();
  await session.send("ship");
  const t1 = performance.now();
  const { runId, requests } = session.state;
  if (!requests[0]) return { runId, ok: false, why: session.state.error?.message ?? "no approval asked" };
  await session.answer(tn.answerOutput(requests[0].id, "yes"));
  const t2 = performance.now();
  const ok = session.state.status !== "error" && session.state.messages.at(-1)?.text === "Deployed.";
  return { runId, ok, why: session.state.error?.message, prompt: t1 - t0, resume: t2 - t1 };
}

/** The figures of SESSIONS concurrent page sessions on workerd, or `{ skipped }` when Miniflare cannot start. */
export async function workerdSessions(tn) {
  const name = `createRunHandler on workerd, Durable Object storage (${SESSIONS} page sessions)`;
  let Miniflare;
  try {
    ({ Miniflare } = await import("miniflare"));
  } catch (error) {
    return { name, skipped: error.message };
  }
  const { outputFiles } = await build({
    stdin: { contents: WORKER, resolveDir: root, loader: "js" },
    bundle: true,
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  const mf = new Miniflare({
    modules: true,
    script: outputFiles[0].text,
    compatibilityDate: "2026-04-20",
    durableObjects: { RUN_STORE: { className: "RunStoreObject", useSQLite: true } },
    host: "127.0.0.1",
    port: 0,
    cf: false,
  });
  try {
    const { origin } = await mf.ready;
    const started = performance.now();
    let timer;
    const bounded = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name}: over ${LIMIT_MS} ms`)), LIMIT_MS);
    });
    const sessions = Array.from({ length: SESSIONS }, () => pageSession(tn, `${origin}/api/run`));
    const outcomes = await Promise.race([Promise.all(sessions), bounded]).finally(() => clearTimeout(timer));
    const wall = performance.now() - started;
    const ran = await (await fetch(`${origin}/stats`)).json();
    const lost = outcomes.filter((o) => !o.ok || ran[o.runId] !== 1);
    const duplicates = outcomes.filter((o) => (ran[o.runId] ?? 0) > 1).length;
    const sorted = (key) =>
      outcomes
        .filter((o) => o.ok)
        .map((o) => o[key])
        .sort((a, b) => a - b);
    const [prompt, resume] = [sorted("prompt"), sorted("resume")];
    return {
      name,
      lost: lost.length,
      duplicates,
      why: lost[0]?.why,
      p50: percentile(prompt, 50),
      p99: percentile(prompt, 99),
      resumeP50: percentile(resume, 50),
      resumeP99: percentile(resume, 99),
      wall,
    };
  } finally {
    await mf.dispose();
  }
}
