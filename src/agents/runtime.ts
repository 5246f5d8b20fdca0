// createAgentRuntime: the family's handle runtime (§7D) — spawn, post, wake, wait, interrupt, close, list,
// inspect, resume and trace over handles with deterministic ids (`root/planner.1/explore.2`), carved budgets
// checked live over the ancestor chain, three loud gates (inbox, per-parent concurrency, the global turn gate)
// and the two rails. Every turn is a client run; a handle's transitions are traced as the family's strings.
import { ConfigError } from "../errors";
import type { Client } from "../client";
import type { Answer } from "../types";
import type { Hooks } from "../loop/options";
import type { MetricEvent } from "../loop/telemetry";
import { preview } from "./_text";
import type { Handle, InboxItem } from "./handle";
import { Runtime, type HandleRef } from "./runtime-core";
import type { Agent, Budget, TaskResult } from "./types";

export type { HandleRef } from "./runtime-core";

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
  /** Every agent's metric events, unless the agent has an `onMetric` of its own (which replaces this one). */
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
  if (options.onMetric !== undefined && typeof options.onMetric !== "function")
    throw new ConfigError(
      "onMetric",
      `toolnexus: createAgentRuntime: onMetric must be a function, got ${preview(options.onMetric)}`,
    );
  const rt = new Runtime({ ...options, client });
  return {
    root: rt.root,
    trace: rt.trace,
    spawn: (parent, agent, budget) => rt.spawn(parent, agent, budget),
    post: (h, item) => rt.post(h, item),
    wake: (h, prompt) => rt.wake(h, prompt),
    wait: (h, timeoutMs) => rt.wait(h, timeoutMs),
    interrupt: (h) => rt.interrupt(h),
    close: (h, opts) => rt.close(h, opts),
    list: () => [...rt.all.values()].filter((h) => h !== rt.root).map(info),
    inspect: (ref) => info(rt.find(ref)),
    resume: (answer) => rt.resume(answer),
  };
}
