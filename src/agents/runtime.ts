// createAgentRuntime: the family's handle runtime (§7D) — spawn, post, wake, wait, interrupt, close, list,
// inspect, resume and trace over handles with deterministic ids (`root/planner.1/explore.2`), carved budgets
// checked live over the ancestor chain, three loud gates (inbox, per-parent concurrency, the global turn gate)
// and the two rails. Every turn is a client run; a handle's transitions are traced as the family's strings.
import { ConfigError, RunConflictError } from "../errors";
import { preview } from "./_text";
import type { Client } from "../client";
import type { Answer, Hooks, MetricEvent } from "../types";
import {
  DEFAULT_BUDGET,
  carve,
  exhausted,
  inboxBlock,
  resultOf,
  type Handle,
  type InboxItem,
  type RuntimeVerbs,
} from "./handle";
import { gate, runTurn, type TurnEnv } from "./runtime-turn";
import { ownTools } from "./level";
import { runtimeTask } from "./runtime-task";
import type { Agent, Budget, TaskResult } from "./types";

export interface AgentRuntimeOptions {
  agents: readonly Agent[];
  client: Client;
  /** The one time source (a virtual clock in tests): `wait` timeouts and `maxWallMs` read it. */
  clock?: { now(): number };
  /** Each handle's inbox bound (default 8). */
  inboxCap?: number;
  /** Model calls at once across the runtime (default 8). */
  maxConcurrentTurns?: number;
  /** How long a running turn may finish when its handle is closed (default 1000 ms). */
  shutdownMs?: number;
  hooks?: Hooks;
  onMetric?: (event: MetricEvent) => void;
}

/** What `list` and `inspect` show of a handle. */
export interface HandleInfo {
  id: string;
  agent: string;
  state: Handle["state"];
  inbox: number;
  budget: Budget;
  spent: { tokens: number; turns: number };
  children: string[];
  pending?: Handle["pending"];
}

export type HandleRef = Handle | string;

export interface AgentRuntime {
  readonly root: Handle;
  /** Every entry begins with a handle id and ": "; transitions read `<from>→<to>`. */
  readonly trace: readonly string[];
  spawn(parent: HandleRef, agent: Agent | string, budget?: Budget): Handle;
  post(h: HandleRef, item: string | (Partial<InboxItem> & { text: string })): void;
  wake(h: HandleRef, prompt?: string): void;
  wait(h: HandleRef, timeoutMs?: number): Promise<TaskResult>;
  interrupt(h: HandleRef): Promise<void>;
  close(h: HandleRef, opts?: { force?: boolean }): Promise<void>;
  list(): HandleInfo[];
  inspect(h: HandleRef): HandleInfo;
  /** Routes the answer to the deepest handle that asked; each parent above it then reattaches by task key. */
  resume(answer: Answer): Promise<TaskResult>;
}

function newHandle(id: string, agent: Agent, parent: Handle | undefined, budget: Handle["budget"]): Handle {
  return {
    id,
    agent,
    parent,
    depth: parent ? parent.depth + 1 : 0,
    state: "idle",
    inbox: [],
    drained: [],
    budget,
    spent: { tokens: 0, turns: 0 },
    children: [],
    spawned: {},
    running: 0,
    queue: [],
    transcript: [],
    waiters: [],
  };
}

const info = (h: Handle): HandleInfo => ({
  id: h.id,
  agent: h.agent.name,
  state: h.state,
  inbox: h.inbox.length,
  budget: { ...h.budget },
  spent: { ...h.spent },
  children: h.children.map((c) => c.id),
  ...(h.pending ? { pending: h.pending } : {}),
});

/** Creates the runtime (the family's six verbs, list, inspect, resume and trace). */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const { client } = options;
  if (typeof client?.run !== "function")
    throw new ConfigError("client", `toolnexus: createAgentRuntime needs { client }, got ${preview(client)}`);
  if (!Array.isArray(options.agents))
    throw new ConfigError(
      "agents",
      `toolnexus: createAgentRuntime needs { agents: [...] }, got ${preview(options.agents)}`,
    );
  const registry = new Map(options.agents.map((a) => [a.name, a]));
  const cap = options.inboxCap ?? 8;
  const shutdownMs = options.shutdownMs ?? 1000;
  const trace: string[] = [];
  const t = (line: string) => void trace.push(line);
  const rootAgent = { name: "root", does: "the runtime's root", options: { does: "the runtime's root" } } as Agent;
  const root = newHandle("root", rootAgent, undefined, { ...DEFAULT_BUDGET, maxTurns: 0 });
  const all = new Map<string, Handle>([["root", root]]);

  const find = (ref: HandleRef): Handle => {
    const h = typeof ref === "string" ? all.get(ref) : ref;
    if (!h || all.get(h.id) !== h) throw new ConfigError("handle", `toolnexus: unknown handle ${preview(ref)}`);
    return h;
  };
  const agentOf = (ref: Agent | string): Agent => {
    const a = typeof ref === "string" ? registry.get(ref) : ref;
    if (!a) {
      const known = [...registry.keys()].sort().join(", ");
      throw new ConfigError("agent", `unknown agent "${String(ref)}" (known: ${known})`);
    }
    return a;
  };
  const move = (h: Handle, to: Handle["state"], note?: string) => {
    t(`${h.id}: ${h.state}→${to}${note ? ` (${note})` : ""}`);
    h.state = to;
  };
  const settle = (h: Handle, r: TaskResult) => {
    h.last = r;
    for (const w of h.waiters.splice(0)) w(r);
  };

  function spawn(parentRef: HandleRef, def: Agent | string, budget?: Budget): Handle {
    const parent = find(parentRef);
    const agent = agentOf(def);
    if (parent.state === "closed") throw new RunConflictError(parent.id, `inbox closed: ${parent.id}`, "finished");
    if (parent.depth + 1 > parent.budget.maxDepth)
      throw new ConfigError("maxDepth", `maxDepth ${parent.budget.maxDepth} exceeded`);
    const most = parent.budget.maxChildren;
    if (most !== undefined && parent.children.length >= most)
      throw new ConfigError("maxChildren", `maxChildren ${most} exceeded`);
    const limit = parent === root ? undefined : exhausted(parent);
    if (limit) throw new ConfigError("budget", `budget exhausted (${limit}); incomplete`);
    const n = (parent.spawned[agent.name] ?? 0) + 1;
    parent.spawned[agent.name] = n;
    const child = newHandle(
      `${parent.id}/${agent.name}.${n}`,
      agent,
      parent,
      carve(parent, budget ?? agent.options.budget),
    );
    parent.children.push(child);
    all.set(child.id, child);
    t(`${child.id}: spawned (depth ${child.depth}, tokens ${child.budget.maxTokens ?? "unlimited"})`);
    agent.options.onSpawn?.(child.id);
    return child;
  }

  function post(ref: HandleRef, item: string | (Partial<InboxItem> & { text: string })): void {
    const h = find(ref);
    const it: InboxItem =
      typeof item === "string"
        ? { text: item, from: "external", channel: "external" }
        : { from: "external", channel: "external", ...item };
    if (h.state === "closed" || h.closing) throw new RunConflictError(h.id, `inbox closed: ${h.id}`, "finished");
    if (h.inbox.length >= cap) {
      t(`${h.id}: post REJECTED (inbox full, cap ${cap}) from ${it.from}`);
      throw new RunConflictError(h.id, `inbox full: ${h.id} (cap ${cap})`, "busy");
    }
    h.inbox.push(it);
  }

  const env: TurnEnv = {
    client,
    turnGate: gate(options.maxConcurrentTurns ?? 8),
    hooks: options.hooks,
    toolsOf: (h) => {
      const { team } = h.agent.options;
      const own = ownTools(h.agent);
      return team && team.length > 0 ? [...own, runtimeTask(h, verbs)] : own;
    },
  };

  /** The end of a turn: the drain consumed (or restored), the parent's slot handed to the next queued wake. */
  function finished(h: Handle, r: TaskResult): void {
    if (r.status === "interrupted") h.inbox.unshift(...h.drained);
    h.drained = [];
    h.abort = undefined;
    h.current = undefined;
    if (h.state === "running") {
      if (r.status === "pending") move(h, "suspended", `pending "${r.pending?.kind}"`);
      else
        move(h, "idle", r.status === "interrupted" ? `interrupted; inbox intact: ${h.inbox.length} items` : undefined);
    }
    const p = h.parent;
    if (p) {
      p.running--;
      const next = p.queue.shift();
      if (next) next();
    }
    settle(h, r);
  }

  function start(h: Handle, go: { input: string } | { answer: Answer }, note: string): void {
    const abort = new AbortController();
    h.abort = abort;
    move(h, "running", note);
    if (h.parent) h.parent.running++;
    h.current = runTurn(env, h, go, abort.signal).then((r) => {
      finished(h, r);
      return r;
    });
  }

  function wake(ref: HandleRef, prompt?: string): void {
    const h = find(ref);
    if (h.state !== "idle" || h === root) return;
    const admit = () => {
      const limit = exhausted(h);
      if (limit) return settle(h, resultOf("incomplete", `budget exhausted (${limit}); partial work preserved`, h));
      h.drained = h.inbox.splice(0);
      start(h, { input: [prompt ?? "", inboxBlock(h, h.drained)].filter(Boolean).join("\n") }, "wake");
    };
    const p = h.parent;
    if (p && p !== root && p.running >= p.budget.maxConcurrent) {
      t(`${h.id}: wake QUEUED (parent concurrency ${p.budget.maxConcurrent})`);
      h.queued = true;
      p.queue.push(() => {
        h.queued = false;
        t(`${h.id}: DEQUEUED wake (slot freed)`);
        admit();
      });
      return;
    }
    admit();
  }

  function wait(ref: HandleRef, timeoutMs?: number): Promise<TaskResult> {
    const h = find(ref);
    if (h.state === "suspended" || h.state === "closed" || (h.state === "idle" && h.last && !h.queued))
      return Promise.resolve(h.last ?? resultOf(h.state === "closed" ? "closed" : "done", "", h));
    return new Promise((resolve) => {
      h.waiters.push(resolve);
      if (timeoutMs !== undefined)
        setTimeout(() => resolve(resultOf("timeout", `no result within ${timeoutMs}ms`, h)), timeoutMs);
    });
  }

  async function interrupt(ref: HandleRef): Promise<void> {
    const h = find(ref);
    if (h.state === "running" && h.abort) {
      h.abort.abort();
      await h.current;
    } else if (h.state === "suspended") {
      h.pending = undefined;
      h.runId = undefined;
      move(h, "idle", "request cancelled");
      settle(h, resultOf("interrupted", "interrupted", h));
    }
  }

  async function close(ref: HandleRef, opts: { force?: boolean } = {}): Promise<void> {
    const h = find(ref);
    if (h.state === "closed") return;
    h.closing = true;
    for (const c of [...h.children].reverse()) await close(c, opts);
    if (h.state === "running" && h.current) {
      const limit = opts.force ? 0 : shutdownMs;
      const late = await Promise.race([
        h.current.then(() => false),
        new Promise((r) => setTimeout(() => r(true), limit)),
      ]);
      if (late) await interrupt(h);
    }
    if (h === root) return void (h.state = "closed");
    move(h, "closed");
    h.agent.options.onClose?.(h.id, opts.force ? "forced" : "closed");
    settle(h, resultOf("closed", "closed", h));
  }

  const verbs: RuntimeVerbs = { spawn, wake, wait, close, start, trace: t };

  async function resume(answer: Answer): Promise<TaskResult> {
    const asking = [...all.values()].filter((h) => h.state === "suspended" && h.pending?.id === answer.id);
    if (asking.length === 0)
      throw new ConfigError("answer", `toolnexus: no handle waits on request ${preview(answer?.id)}`);
    asking.sort((a, b) => b.depth - a.depth);
    let last: TaskResult | undefined;
    for (const h of asking) {
      move(h, "idle", "answer accepted; checkpoint restored");
      if (h !== asking[0]) t(`${h.id}: cascade resume (replay reattaches by task key)`);
      start(h, { answer }, "replay");
      last = await wait(h);
    }
    return last!;
  }

  return {
    root,
    trace,
    spawn,
    post,
    wake,
    wait,
    interrupt,
    close,
    list: () => [...all.values()].filter((h) => h !== root).map(info),
    inspect: (ref) => info(find(ref)),
    resume,
  };
}
