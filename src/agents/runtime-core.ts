// The agent runtime's state and verbs (the family's §7D): handles with deterministic ids, carved budgets
// checked over the ancestor chain, the inbox, concurrency and turn gates, and each transition traced as the
// family writes it. createAgentRuntime (runtime.ts) checks its options and hands out these verbs.
import { ConfigError, RunConflictError } from "../errors";
import type { Client } from "../client";
import type { Answer } from "../types";
import type { Hooks } from "../loop/options";
import type { MetricEvent } from "../loop/telemetry";
import { preview } from "./_text";
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
import { ownTools } from "./level";
import { runtimeTask } from "./runtime-task";
import { gate, runTurn, type TurnEnv } from "./runtime-turn";
import type { Agent, Budget, TaskResult } from "./types";

export type HandleRef = Handle | string;

export function newHandle(id: string, agent: Agent, parent: Handle | undefined, budget: Handle["budget"]): Handle {
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
    toolCalls: 0,
    children: [],
    spawned: {},
    running: 0,
    queue: [],
    transcript: [],
    waiters: [],
  };
}

const ROOT_AGENT = { name: "root", does: "the runtime's root", options: { does: "the runtime's root" } } as Agent;

export interface RuntimeSettings {
  client: Client;
  agents: readonly Agent[];
  inboxCap?: number;
  maxConcurrentTurns?: number;
  shutdownMs?: number;
  hooks?: Hooks;
  onMetric?: (event: MetricEvent) => void;
  clock?: { now(): number };
}

export class Runtime implements RuntimeVerbs {
  readonly trace: string[] = [];
  readonly root = newHandle("root", ROOT_AGENT, undefined, { ...DEFAULT_BUDGET, maxTurns: 0 });
  readonly all = new Map<string, Handle>([["root", this.root]]);
  private readonly registry: Map<string, Agent>;
  private readonly cap: number;
  private readonly shutdownMs: number;
  private readonly env: TurnEnv;

  constructor(o: RuntimeSettings) {
    this.registry = new Map(o.agents.map((a) => [a.name, a]));
    this.cap = o.inboxCap ?? 8;
    this.shutdownMs = o.shutdownMs ?? 1000;
    this.env = {
      client: o.client,
      turnGate: gate(o.maxConcurrentTurns ?? 8),
      hooks: o.hooks,
      onMetric: o.onMetric,
      now: () => o.clock?.now() ?? Date.now(),
      toolsOf: (h) => {
        const own = ownTools(h.agent);
        return h.agent.options.team?.length ? [...own, runtimeTask(h, this)] : own;
      },
    };
  }

  t(line: string): void {
    this.trace.push(line);
  }

  find(ref: HandleRef): Handle {
    const h = typeof ref === "string" ? this.all.get(ref) : ref;
    if (!h || this.all.get(h.id) !== h) throw new ConfigError("handle", `toolnexus: unknown handle ${preview(ref)}`);
    return h;
  }

  agentOf(ref: Agent | string): Agent {
    const a = typeof ref === "string" ? this.registry.get(ref) : ref;
    if (!a) {
      const known = [...this.registry.keys()].sort().join(", ");
      throw new ConfigError("agent", `unknown agent "${String(ref)}" (known: ${known})`);
    }
    return a;
  }

  move(h: Handle, to: Handle["state"], note?: string): void {
    this.t(`${h.id}: ${h.state}→${to}${note ? ` (${note})` : ""}`);
    h.state = to;
  }

  settle(h: Handle, r: TaskResult): void {
    h.last = r;
    for (const w of h.waiters.splice(0)) w(r);
  }

  spawn(parentRef: HandleRef, def: Agent | string, budget?: Budget): Handle {
    const parent = this.find(parentRef);
    const agent = this.agentOf(def);
    if (parent.state === "closed") throw new RunConflictError(parent.id, `inbox closed: ${parent.id}`, "finished");
    if (parent.depth + 1 > parent.budget.maxDepth)
      throw new ConfigError("maxDepth", `maxDepth ${parent.budget.maxDepth} exceeded`);
    const most = parent.budget.maxChildren;
    if (most !== undefined && parent.children.length >= most)
      throw new ConfigError("maxChildren", `maxChildren ${most} exceeded`);
    const limit = parent === this.root ? undefined : exhausted(parent, this.env.now());
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
    this.all.set(child.id, child);
    this.t(`${child.id}: spawned (depth ${child.depth}, tokens ${child.budget.maxTokens ?? "unlimited"})`);
    agent.options.onSpawn?.(child.id);
    return child;
  }

  post(ref: HandleRef, item: string | (Partial<InboxItem> & { text: string })): void {
    const h = this.find(ref);
    const it: InboxItem =
      typeof item === "string"
        ? { text: item, from: "external", channel: "external" }
        : { from: "external", channel: "external", ...item };
    if (h.state === "closed" || h.closing) throw new RunConflictError(h.id, `inbox closed: ${h.id}`, "finished");
    if (h.inbox.length >= this.cap) {
      this.t(`${h.id}: post REJECTED (inbox full, cap ${this.cap}) from ${it.from}`);
      throw new RunConflictError(h.id, `inbox full: ${h.id} (cap ${this.cap})`, "busy");
    }
    h.inbox.push(it);
  }

  /** The end of a turn: the drain consumed (or restored), the parent's slot handed to the next queued wake. */
  finished(h: Handle, r: TaskResult): void {
    if (r.status === "interrupted") h.inbox.unshift(...h.drained);
    h.drained = [];
    h.abort = undefined;
    h.current = undefined;
    if (h.state === "running") {
      if (r.status === "pending") this.move(h, "suspended", `pending "${r.pending?.kind}"`);
      else
        this.move(
          h,
          "idle",
          r.status === "interrupted" ? `interrupted; inbox intact: ${h.inbox.length} items` : undefined,
        );
    }
    const p = h.parent;
    if (p) {
      p.running--;
      const next = p.queue.shift();
      if (next) next();
    }
    this.settle(h, r);
  }

  start(h: Handle, go: { input: string } | { answer: Answer }, note: string): void {
    const abort = new AbortController();
    h.abort = abort;
    this.move(h, "running", note);
    if (h.parent) h.parent.running++;
    h.current = runTurn(this.env, h, go, abort.signal).then((r) => {
      this.finished(h, r);
      return r;
    });
  }

  wake(ref: HandleRef, prompt?: string): void {
    const h = this.find(ref);
    if (h.state !== "idle" || h === this.root) return;
    const admit = () => {
      const limit = exhausted(h, this.env.now());
      if (limit)
        return this.settle(h, resultOf("incomplete", `budget exhausted (${limit}); partial work preserved`, h));
      h.drained = h.inbox.splice(0);
      this.start(h, { input: [prompt ?? "", inboxBlock(h, h.drained)].filter(Boolean).join("\n") }, "wake");
    };
    const p = h.parent;
    if (p && p !== this.root && p.running >= p.budget.maxConcurrent) {
      this.t(`${h.id}: wake QUEUED (parent concurrency ${p.budget.maxConcurrent})`);
      h.queued = true;
      p.queue.push(() => {
        h.queued = false;
        this.t(`${h.id}: DEQUEUED wake (slot freed)`);
        admit();
      });
      return;
    }
    admit();
  }

  wait(ref: HandleRef, timeoutMs?: number): Promise<TaskResult> {
    const h = this.find(ref);
    if (h.state === "suspended" || h.state === "closed" || (h.state === "idle" && h.last && !h.queued))
      return Promise.resolve(h.last ?? resultOf(h.state === "closed" ? "closed" : "done", "", h));
    return new Promise((resolve) => {
      h.waiters.push(resolve);
      if (timeoutMs !== undefined)
        setTimeout(() => resolve(resultOf("timeout", `no result within ${timeoutMs}ms`, h)), timeoutMs);
    });
  }

  async interrupt(ref: HandleRef): Promise<void> {
    const h = this.find(ref);
    if (h.state === "running" && h.abort) {
      h.abort.abort();
      await h.current;
    } else if (h.state === "suspended") {
      h.pending = undefined;
      h.runId = undefined;
      this.move(h, "idle", "request cancelled");
      this.settle(h, resultOf("interrupted", "interrupted", h));
    }
  }

  async close(ref: HandleRef, opts: { force?: boolean } = {}): Promise<void> {
    const h = this.find(ref);
    if (h.state === "closed") return;
    h.closing = true;
    for (const c of [...h.children].reverse()) await this.close(c, opts);
    if (h.state === "running" && h.current) {
      const limit = opts.force ? 0 : this.shutdownMs;
      const late = await Promise.race([
        h.current.then(() => false),
        new Promise((r) => setTimeout(() => r(true), limit)),
      ]);
      if (late) await this.interrupt(h);
    }
    if (h === this.root) {
      h.state = "closed";
      return;
    }
    this.move(h, "closed");
    h.agent.options.onClose?.(h.id, opts.force ? "forced" : "closed");
    this.settle(h, resultOf("closed", "closed", h));
  }

  /** Routes the answer to the deepest handle that asked; each suspended parent above it then reattaches by task key. */
  async resume(answer: Answer): Promise<TaskResult> {
    const asking = [...this.all.values()].filter((h) => h.state === "suspended" && h.pending?.id === answer.id);
    if (asking.length === 0)
      throw new ConfigError("answer", `toolnexus: no handle waits on request ${preview(answer?.id)}`);
    asking.sort((a, b) => b.depth - a.depth);
    let last: TaskResult | undefined;
    for (const h of asking) {
      this.move(h, "idle", "answer accepted; checkpoint restored");
      if (h !== asking[0]) this.t(`${h.id}: cascade resume (replay reattaches by task key)`);
      this.start(h, { answer }, "replay");
      last = await this.wait(h);
    }
    return last!;
  }
}
