// One turn of a runtime handle: a client run of its agent (its transcript as history, its toolkit with the
// runtime's `task`, its soul and model, no interpreter but its own `waitFor`) under the global turn gate, which
// wraps only the model call and is released even when the run dies; then the outcome as the family's result.
import { errorText } from "./_text";
import type { Client } from "../client";
import type { Answer, PendingRequest, RunResult } from "../types";
import type { Hooks } from "../loop/options";
import type { MetricEvent } from "../loop/telemetry";
import type { RunOptions } from "../client/types";
import type { Tool } from "../tools/types";
import { exhausted, resultOf, type Handle } from "./handle";
import type { TaskResult } from "./types";

/** A counting semaphore, first come first served. */
export function gate(size: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  return {
    acquire: (): Promise<void> => {
      if (held < size) {
        held++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else held--;
    },
  };
}

export interface TurnEnv {
  client: Client;
  turnGate: ReturnType<typeof gate>;
  hooks: Hooks | undefined;
  onMetric: ((event: MetricEvent) => void) | undefined;
  /** The runtime's clock (`maxWallMs`). */
  now(): number;
  toolsOf(h: Handle): Tool[];
}

/** A run's budget stop: the limit it ran out of, and the controller that ends the run (its work kept). */
interface Stop {
  limit?: string;
  controller: AbortController;
}

/**
 * The hooks of a handle's run, over the agent's hooks (else the runtime's): the budget checked live before each
 * model call (a limit reached ends the run `incomplete`, its transcript kept), the turn gate around the call, and
 * each tool call counted as it ends.
 */
function gatedHooks(env: TurnEnv, h: Handle, held: { n: number }, stop: Stop): Hooks {
  const own = { ...env.hooks, ...h.agent.options.hooks };
  return {
    ...own,
    async beforeLLM(info) {
      const limit = exhausted(h, env.now());
      if (limit && limit !== "maxTurns") {
        stop.limit = limit;
        stop.controller.abort(new Error(`budget exhausted (${limit})`));
        throw stop.controller.signal.reason;
      }
      await env.turnGate.acquire();
      held.n++;
      return own.beforeLLM?.(info);
    },
    async afterLLM(info) {
      if (held.n > 0) {
        held.n--;
        env.turnGate.release();
      }
      return own.afterLLM?.(info);
    },
    async afterTool(info) {
      h.toolCalls++;
      return own.afterTool?.(info);
    },
  };
}

/** Adds what a run spent since it was last counted to the handle and every ancestor. */
function spend(h: Handle, tokens: number, turns: number): void {
  h.spent.turns += turns;
  for (let x: Handle | undefined = h; x; x = x.parent) x.spent.tokens += tokens;
}

const withoutSystem = (messages: unknown[]): unknown[] =>
  messages.filter((m) => !["system", "developer"].includes(String((m as { role?: unknown })?.role)));

/** The leaf's Request with `data.path` to the handle that asked (stamped once, by the deepest level). */
const stamped = (h: Handle, request: PendingRequest): PendingRequest =>
  Array.isArray(request.data?.path)
    ? request
    : ({ ...request, data: { ...request.data, path: h.id.split("/") } } as PendingRequest);

/** A run's outcome as the handle's result; the handle's state and transcript follow it. */
function outcome(
  h: Handle,
  r: RunResult,
  counted: { tokens: number; turns: number },
  interrupted: boolean,
  over?: string,
): TaskResult {
  spend(h, r.usage.totalTokens - counted.tokens, r.turns - counted.turns);
  if (r.status === "pending") {
    h.runId = r.runId;
    h.pending = stamped(h, r.pending);
    return resultOf("pending", r.pending.prompt, h, h.pending);
  }
  h.runId = undefined;
  h.pending = undefined;
  h.transcript = withoutSystem(r.messages);
  if (r.status === "done") return { ...resultOf("done", r.text, h), isError: false };
  if (over) return resultOf("incomplete", `budget exhausted (${over}); partial work preserved`, h);
  if (interrupted || r.limit === "aborted") return resultOf("interrupted", r.text, h);
  if (r.limit === "maxTurns") return resultOf("incomplete", "budget exhausted (maxTurns); partial work preserved", h);
  return resultOf("timeout", r.text, h);
}

/** Runs a handle's turn — a new run with `input`, or its halted run resumed with `answer` — to its result. */
export async function runTurn(
  env: TurnEnv,
  h: Handle,
  go: { input: string } | { answer: Answer },
  signal: AbortSignal,
): Promise<TaskResult> {
  const held = { n: 0 };
  const stop: Stop = { controller: new AbortController() };
  h.startedAt ??= env.now();
  const o = h.agent.options;
  // the agent's onMetric in place of the runtime's (resolved per field, never merged)
  const onMetric = o.onMetric ?? env.onMetric;
  const counted = "answer" in go ? { tokens: h.runTokens ?? 0, turns: h.runTurns ?? 0 } : { tokens: 0, turns: 0 };
  const opts: RunOptions = {
    toolkit: env.toolsOf(h),
    signal: AbortSignal.any([signal, stop.controller.signal]),
    waitFor: o.waitFor ?? null,
    maxTurns: Math.max(1, h.budget.maxTurns - h.spent.turns + counted.turns),
    hooks: gatedHooks(env, h, held, stop),
    agent: h.agent.name,
    traceParent: h.traceParent,
    ...(onMetric ? { onMetric } : {}),
    ...(o.soul === undefined ? {} : { systemPrompt: o.soul }),
    ...(o.model === undefined || o.model === "inherit" ? {} : { model: o.model }),
  };
  try {
    const r =
      "answer" in go
        ? await env.client.resume(h.runId!, go.answer, opts)
        : await env.client.run(go.input, { ...opts, history: h.transcript });
    const result = outcome(h, r, counted, signal.aborted, stop.limit);
    h.runTokens = r.status === "pending" ? r.usage.totalTokens : 0;
    h.runTurns = r.status === "pending" ? r.turns : 0;
    return result;
  } catch (error) {
    return resultOf(signal.aborted ? "interrupted" : "error", errorText(error), h);
  } finally {
    for (; held.n > 0; held.n--) env.turnGate.release(); // a run that died holding the gate gives it back
  }
}
