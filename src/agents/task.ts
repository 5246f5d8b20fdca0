// An agent level's runs — an agent run IS a client run: its tools and its `task` tool as the toolkit, its soul
// as the system prompt, its model, its interpreter (the nearest `waitFor`: its own, else none below the root
// so the request escalates, the client's at the root) — and the `task` tool of an agent with a team: spawn → run → settle, each child a client run of its own whose
// handle id, run id and outcome are stored by value (tree.ts). A child that asks makes the call suspend with
// the child's Request (`data.path` stamped by the level above the leaf, its id made unique by that path) and,
// as the call's state, what reattaches it; the answer re-runs only this call, which resumes the child.
import { pending } from "../pending";
import { errorText } from "./_text";
import { taskDeclaration } from "./task-declaration";
import { runFailure } from "../_internal/run-failure";
import { handedSignal } from "../_internal/signals";
import { runKey } from "../run-state/record";
import type { Answer, PendingRequest, RunResult, StreamEvent, ToolResult } from "../types";
import type { ResumeOptions, RunOptions } from "../client/types";
import type { Tool, ToolContext } from "../tools/types";
import { ownTools, rolledUp, type Level } from "./level";
import { childFor, entryOf, reserve, settleChild, type ChildEntry, type TreeGuess } from "./tree";
import { budgeted, exhausted, ledgerFor, spend } from "./ledger";
import type { Agent, AgentOptions, TaskResult } from "./types";

/** What a suspended `task` call keeps (its tool state): the child's run, handle path and the id it asked with. */
interface TaskState {
  run: string;
  path: string[];
  ask: string;
}

const isTaskState = (s: unknown): s is TaskState =>
  typeof s === "object" &&
  s !== null &&
  typeof (s as TaskState).run === "string" &&
  typeof (s as TaskState).ask === "string" &&
  Array.isArray((s as TaskState).path);

/** The team, resolved to agents and sorted by name. */
export function teamOf(agent: Agent): Agent[] {
  const team = agent.options.team ?? [];
  const found = team.filter((m): m is Agent => typeof m === "object" && m !== null);
  return found.sort((a, b) => (a.name < b.name ? -1 : Number(a.name > b.name)));
}

/** The leaf's Request as its parent level escalates it: `data.path` to the leaf, an id unique by that path. */
function stamped(request: PendingRequest, path: string[]): PendingRequest {
  if (Array.isArray(request.data?.path)) return request; // stamped below: the deepest path names the leaf
  return { ...request, id: `${path.join("/")}:${request.id}`, data: { ...request.data, path } } as PendingRequest;
}

/** A child's outcome as its task result. */
export function taskResultOf(result: RunResult): TaskResult {
  const base = { turns: result.turns, totalTokens: result.usage.totalTokens };
  if (result.status === "done") return { status: "done", text: result.text, isError: false, ...base };
  if (result.status === "pending")
    return { status: "pending", text: result.pending.prompt, isError: false, pending: result.pending, ...base };
  return { status: "incomplete", text: result.text, isError: true, ...base };
}

/** A settled child's outcome as the parent's model sees it: its text, or `[<status>] <text>` as an error. */
function presented(agent: string, r: TaskResult, usage?: RunResult["usage"]): ToolResult {
  const metadata = { agent, turns: r.turns, totalTokens: r.totalTokens, ...(usage ? { usage } : {}) };
  if (r.status === "done") return { output: r.text, isError: false, metadata };
  return { output: `[${r.status}] ${r.text}`, isError: true, metadata };
}

/** An error's `code` (read, not `instanceof`: this module may be bundled apart from the core's classes). */
const codeOf = (e: unknown): unknown => (e as { code?: unknown } | null)?.code;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When a child's run is claimed by a resume that may have died: the end of its lease (ms since the epoch). */
async function leaseEnd(level: Level, run: string): Promise<number | undefined> {
  try {
    const raw = await level.client.storage.get(runKey(run));
    const record = JSON.parse(raw ?? "null") as { status?: string; lease?: { until?: number } } | null;
    return record?.status === "claimed" ? record.lease?.until : undefined;
  } catch {
    return undefined; // unreadable: the resume's own error is the one to report
  }
}

/**
 * Resumes the child with the answer (its own request id back): a claim another resume holds is waited out (its
 * lease), a token the client requires is the child's own, and any other failure ends the parent's run too —
 * never a made-up result — so the same answer, retried, finishes every level.
 */
async function resumeChild(child: Level, st: TaskState, answer: Answer, traceParent: unknown): Promise<RunResult> {
  const mine: Answer = { ...answer, id: st.ask };
  let token: string | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await resumeLevel(child, st.run, mine, token === undefined ? { traceParent } : { token, traceParent });
    } catch (error) {
      if (codeOf(error) === "resume_token" && token === undefined && attempt === 0) {
        token = (await child.client.inspect(st.run))?.tokens?.[st.ask];
        if (token !== undefined) continue;
      }
      const until = codeOf(error) === "run_conflict" && attempt < 8 ? await leaseEnd(child, st.run) : undefined;
      if (until === undefined) throw runFailure(error);
      // the lease was taken on the client's clock: it is waited out by that clock
      await sleep(Math.max(1, until - child.client.clock.now() + 1));
    }
  }
}

/** A child whose outcome a crash lost: it may have run, so it is reported, never run again. */
const lost = (agent: string): TaskResult => ({
  status: "interrupted",
  text: `${agent} did not finish`,
  isError: true,
  turns: 0,
  totalTokens: 0,
});

/**
 * The child this call already had, found again by a call re-run after a crash: its open request while it asks;
 * else its outcome is unknown (it may have run) — reported as interrupted, never run a second time.
 */
async function reattached(child: Level, entry: ChildEntry): Promise<TaskResult> {
  const seen = await child.client.inspect(entry.run);
  if (seen?.status === "pending" && seen.requests.length > 0) {
    const request = seen.requests[0]!;
    return { status: "pending", text: request.prompt, isError: false, pending: request, turns: 0, totalTokens: 0 };
  }
  return lost(child.agent.name);
}

/** What the call's child gave: a run's outcome, a task result (reattached or stored), and what it settles. */
interface Outcome {
  result: TaskResult;
  usage?: RunResult["usage"];
  /** Already stored in the tree (a re-run call returning its child's recorded result). */
  kept?: true;
  /** A new run's spawn, written with this outcome (tree.ts, reserve). */
  held?: ChildEntry;
  st: TaskState;
}

const fromRun = (run: RunResult, st: TaskState): Outcome => ({ result: taskResultOf(run), usage: run.usage, st });

/** A call answered: its child's result if a crash lost only the parent's record of it, else the child resumed. */
async function answered(level: Level, member: Agent, st: TaskState, ctx: ToolContext): Promise<Outcome> {
  const entry = await entryOf(level.client, ctx.runId, ctx.idempotencyKey).catch((e) => {
    throw runFailure(e);
  });
  if (entry?.result) return { result: entry.result, ...(entry.usage ? { usage: entry.usage } : {}), kept: true, st };
  return fromRun(await resumeChild(childOf(level, member, st.path), st, ctx.answer!, ctx.traceParent), st);
}

/**
 * The guess at the tree of `level`'s run `runId`: what this process last wrote of it; none stored yet for a
 * new run; else none (it is read first).
 */
function guessOf(level: Level, runId: string): TreeGuess | undefined {
  if (level.tree?.runId === runId) return level.tree;
  if (!level.fresh) return undefined;
  level.tree = { runId, raw: undefined };
  return level.tree;
}

/** A child level under `level`: its ledger carved from the parent's. */
const childOf = (level: Level, member: Agent, path: string[]): Level => ({
  agent: member,
  client: level.client,
  path,
  ledger: ledgerFor(member.options.budget, level.ledger, level.client.clock.now()),
});

/** A call's child: a new one, run now; or — a call re-run after a crash — the one it already has. */
async function started(level: Level, member: Agent, prompt: string, ctx: ToolContext): Promise<Outcome | ToolResult> {
  const budget = level.agent.options.budget ?? {};
  const maxDepth = budget.maxDepth ?? 3;
  if (level.path.length > maxDepth) return { output: `maxDepth ${maxDepth} exceeded`, isError: true };
  // the chain is walked before a spawn too: a sibling's spend may have drained the pool
  const over = level.ledger && exhausted(level.ledger, level.client.clock.now());
  if (over) return { output: `budget exhausted (${over}); incomplete`, isError: true };
  const limits = { agent: member.name, prompt, maxChildren: budget.maxChildren ?? Number.POSITIVE_INFINITY };
  const guess = guessOf(level, ctx.runId);
  // a new run's spawn is written with its child's outcome (tree.ts, reserve); a resumed run's, first
  const { entry, fresh } =
    level.fresh && guess
      ? reserve(guess, limits)
      : await childFor(level.client, ctx.runId, ctx.idempotencyKey, limits, guess).catch((e) => {
          throw runFailure(e);
        });
  if (entry.run === "") return { output: entry.key, isError: true };
  const path = [...level.path, entry.id];
  const st: TaskState = { run: entry.run, path, ask: "" };
  const child = childOf(level, member, path);
  if (entry.result) return { result: entry.result, ...(entry.usage ? { usage: entry.usage } : {}), kept: true, st };
  if (!fresh)
    return {
      result: await reattached(child, entry).catch((e) => {
        throw runFailure(e);
      }),
      st,
    };
  member.options.onSpawn?.(path.join("/"));
  let out: Outcome;
  try {
    const extra: RunOptions = { runId: entry.run, traceParent: ctx.traceParent };
    const signal = handedSignal(ctx); // none when nothing can abort this call: the child's run then has none
    if (signal) extra.signal = signal;
    out = fromRun(await runLevel(child, prompt, extra), st);
  } catch (error) {
    out = { result: { status: "error", text: errorText(error), isError: true, turns: 0, totalTokens: 0 }, st };
  }
  if (level.fresh) out.held = entry; // a new run's spawn, not written yet: it is, with the child's outcome
  return out;
}

async function delegate(
  level: Level,
  team: Agent[],
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const name = String(args.agent ?? "");
  const prompt = String(args.prompt ?? "");
  const member = team.find((a) => a.name === name);
  if (!member) {
    const names = team.map((a) => a.name);
    return {
      output: `agent "${name}" not in this agent's team (${names.length ? names.join(", ") : "none"})`,
      isError: true,
    };
  }
  const state = ctx.state;
  const outcome =
    isTaskState(state) && ctx.answer
      ? await answered(level, member, state, ctx)
      : await started(level, member, prompt, ctx);
  if (!("st" in outcome)) return outcome;
  const { result, usage, st } = outcome;
  const { held } = outcome;
  const record = (settled: Parameters<typeof settleChild>[3]) =>
    settleChild(level.client, ctx.runId, ctx.idempotencyKey, settled, guessOf(level, ctx.runId)).catch((e) => {
      throw runFailure(e);
    });
  if (result.status === "pending") {
    // the child's run is stored before the parent's halt: the answer's re-run call finds it by its entry
    if (held) await record({ held });
    const request = result.pending!;
    return pending(stamped(request, st.path), { state: { run: st.run, path: st.path, ask: request.id } });
  }
  spend(level.ledger, result.totalTokens);
  if (!outcome.kept) {
    // stored before the parent's model sees it: a call re-run after a crash returns it, never runs the child again
    await record({ result, usage, held });
    member.options.onClose?.(st.path.join("/"), result.status);
  }
  return presented(name, result, usage);
}

/** The `task` tool of a level whose agent has a team. */
export function taskTool(level: Level): Tool {
  const team = teamOf(level.agent);
  const entries = team.map((a) => `${a.name}: ${a.does}`);
  return {
    ...taskDeclaration(entries),
    recovery: "rerun",
    execute: (args, ctx) => delegate(level, team, args, ctx),
  };
}

/** The toolkit of a level: the agent's tools, then `task` when it has a team. */
export function toolsOf(level: Level): Tool[] {
  const { team } = level.agent.options;
  const own = ownTools(level.agent);
  return team && team.length > 0 ? [...own, taskTool(level)] : own;
}

/** What a run of this level passes the client (the same for a resume, less what the record keeps). */
export function levelOptions(level: Level): RunOptions {
  const o: AgentOptions = level.agent.options;
  const root = level.path.length <= 2;
  const waitFor = o.waitFor ?? (root ? undefined : null);
  // set field by field, not spread: this runs for every child run (a spread past the first is a slow copy)
  const opts: RunOptions = { toolkit: toolsOf(level), agent: level.agent.name };
  if (o.soul !== undefined) opts.systemPrompt = o.soul;
  if (o.model !== undefined && o.model !== "inherit") opts.model = o.model;
  if (waitFor !== undefined) opts.waitFor = waitFor;
  if (o.budget?.maxTurns !== undefined) opts.maxTurns = o.budget.maxTurns;
  if (o.hooks !== undefined) opts.hooks = o.hooks;
  if (o.onMetric !== undefined) opts.onMetric = o.onMetric;
  return opts;
}

/** The level's budget for a run of it (ledger.ts): its options' hooks and signal, and its result named. */
function withBudget(level: Level, signal: AbortSignal | undefined) {
  const now = () => level.client.clock.now();
  level.ledger ??= ledgerFor(level.agent.options.budget, undefined, now());
  const { done, hooks, signal: stop } = budgeted(level.ledger, now, level.agent.options.hooks, signal);
  // named, not a rest copy (a slow generic copy in V8): a run's hooks and signal, when its budget has limits
  const options: Pick<RunOptions, "hooks" | "signal"> = {};
  if (hooks) options.hooks = hooks;
  if (stop) options.signal = stop;
  return { options, done: (result: RunResult) => done(rolledUp(result)) };
}

export async function runLevel(level: Level, prompt: string, extra: RunOptions = {}): Promise<RunResult> {
  level.fresh = true;
  const budget = withBudget(level, extra.signal);
  const opts = Object.assign(levelOptions(level), extra, budget.options);
  return budget.done(await level.client.run(prompt, opts));
}

export async function* streamLevel(level: Level, prompt: string, extra: RunOptions = {}): AsyncGenerator<StreamEvent> {
  level.fresh = true;
  const budget = withBudget(level, extra.signal);
  for await (const event of level.client.stream(prompt, { ...levelOptions(level), ...extra, ...budget.options }))
    yield event.type === "done" ? { ...event, result: budget.done(event.result) } : event;
}

export async function resumeLevel(
  level: Level,
  runId: string,
  answer: Answer | readonly Answer[],
  extra: ResumeOptions = {},
): Promise<RunResult> {
  const { toolkit, waitFor, maxTurns, hooks, onMetric, agent } = levelOptions(level);
  const opts: ResumeOptions & Pick<RunOptions, "maxTurns" | "hooks"> = {
    toolkit,
    ...(waitFor === undefined ? {} : { waitFor }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(hooks === undefined ? {} : { hooks }),
    ...(onMetric === undefined ? {} : { onMetric }),
    agent,
    ...extra,
  };
  level.fresh = false;
  const budget = withBudget(level, extra.signal);
  return budget.done(await level.client.resume(runId, answer, { ...opts, ...budget.options }));
}
