// One run, resume or stream as the caller sees it: the deadline and the caller's signal, the `run`
// metric, the text a cancelled run had streamed, resume tokens on what a page receives, and the final
// `usage` and `done` events of a stream.
import { deadline } from "../_internal/signals";
import { resultOf, type LoopState, type ResolvedOptions, type RunContext } from "../loop/context";
import { toolSchema } from "../tools/schema/input-schema";
import { withRunParams } from "../loop/call-model";
import type { Resumption } from "../loop/resume";
import type { PendingRequest, RunResult, StreamEvent } from "../types";
import type { MetricEvent, RunTelemetry } from "../loop/telemetry";
import type { RunOptions } from "./types";
import { errorMessage } from "../errors";

export type Plan = (ctx: RunContext) => Promise<Resumption>;

/** What every session of one client shares. */
export interface SessionEnv {
  opts: ResolvedOptions;
  context(
    toolkit: RunOptions["toolkit"],
    signal: AbortSignal | undefined,
    stream: boolean,
    owner?: string,
  ): Promise<RunContext>;
  /** Counts `event` in the client's registry and hands it to `onMetric` (a run's own, else the client's). */
  record(event: MetricEvent, onMetric?: (event: MetricEvent) => void): void;
  /** A signed resume token for a request of a run, when the client has a resumeSecret. */
  token?(runId: string, request: PendingRequest): Promise<string>;
  /** Called once a resumed run finished (not for a returned kept outcome). */
  finished?(state: LoopState, result: RunResult): Promise<void>;
}

/** A run that ended, as its `run` metric counts it: what it got to (0 when it failed before), the error it failed with. */
interface RunOutcome {
  turns?: number;
  toolCalls?: number;
  totalTokens?: number;
  error?: string;
}

/** The `run` metric of a run that ended, with the error when it failed. */
function runMetric(model: string, started: number, outcome: RunOutcome): MetricEvent {
  const { turns = 0, toolCalls = 0, totalTokens = 0, error } = outcome;
  const metric: MetricEvent = { event: "run", model, turns, toolCalls, totalTokens, ms: Date.now() - started };
  if (error !== undefined) metric.error = error;
  return metric;
}

/** A run's own interpreter (`waitFor`, or `null` for none) and hooks in place of the client's. */
function withWaitFor(opts: ResolvedOptions, ro: RunOptions): ResolvedOptions {
  const hooks = ro.hooks ? { ...opts, hooks: { ...opts.hooks, ...ro.hooks } } : opts;
  if (ro.waitFor === undefined) return hooks;
  const { waitFor: _, ...rest } = hooks;
  return ro.waitFor === null ? rest : { ...rest, waitFor: ro.waitFor };
}

/** The run's time limit: `timeoutMs` over the caller's signal, or the caller's signal alone. */
function limitOf(opts: ResolvedOptions, signal: AbortSignal | undefined) {
  if (opts.timeoutMs === undefined) return { signal, timedOut: () => false, done: () => {} };
  return deadline(opts.timeoutMs, signal);
}

/** Where a run's metrics go: a run's own onMetric (an agent's) in place of the client's; the client's registry counts every run. */
function metricsOf(env: SessionEnv, own: RunOptions["onMetric"]): Pick<SessionEnv, "record"> {
  return own ? { record: (event: MetricEvent) => env.record(event, own) } : env;
}

/** The `run` metric of a run that failed, with what it got to before. */
const failedMetric = (model: string, started: number, state: LoopState | undefined, error: unknown) =>
  runMetric(model, started, {
    turns: state?.turns,
    toolCalls: state?.toolCalls.length,
    totalTokens: state?.usage.totalTokens,
    error: errorMessage(error),
  });

/** A token per open request of a halted result, in their order: several answered at once take each one's own. */
async function signResult(token: NonNullable<SessionEnv["token"]>, result: RunResult): Promise<void> {
  if (result.status !== "pending") return;
  const { runId, requests } = result;
  const tokens = await Promise.all(requests.map((request) => token(runId, request)));
  result.token = tokens[0];
  result.tokens = tokens;
}

export async function* session(
  env: SessionEnv,
  runOptions: RunOptions,
  stream: boolean,
  plan: Plan,
): AsyncGenerator<StreamEvent, RunResult> {
  const { opts } = env;
  const limit = limitOf(opts, runOptions.signal);
  const started = Date.now();
  const metrics = metricsOf(env, runOptions.onMetric);
  let trace: RunTelemetry | undefined;
  let state: LoopState | undefined;
  let planned: Resumption | undefined;
  let result: RunResult;
  try {
    const base = await env.context(runOptions.toolkit, limit.signal, stream, runOptions.owner);
    // the run's telemetry starts first, so a bad `output` or `requestParams` ends it with the error
    // an agent's run (toolnexus/agents) is named so, and nests under the tool call that started it
    const { agent, traceParent: parent } = runOptions;
    trace = opts.telemetry?.run({ model: opts.model, style: opts.style, baseUrl: opts.baseUrl, agent, parent });
    planned = await plan({
      ...base,
      metrics,
      trace,
      opts: withWaitFor(withRunParams(base.opts, runOptions.requestParams), runOptions),
      ...(typeof runOptions.maxTurns === "number" ? { maxTurns: runOptions.maxTurns } : {}),
      ...(runOptions.output === undefined ? {} : { output: toolSchema(runOptions.output, "output") }),
    });
    state = planned.state;
    // the `pending` events a page receives carry the token it answers with, when the client signs them
    result = planned.finished ?? (yield* env.token ? signed(env.token, planned.events!) : planned.events!);
  } catch (error) {
    if (!limit.signal?.aborted || !state) {
      metrics.record(failedMetric(opts.model, started, state, error));
      trace?.end(undefined, error);
      throw error;
    }
    // what had streamed before the abort or the timeout stays in `text`
    result = resultOf(state, "incomplete", { limit: limit.timedOut() ? "timeout" : "aborted" });
  } finally {
    limit.done();
    // the run's telemetry ends once: with the result, the error, or — its reader went away — neither
    trace?.end(result!);
  }
  const { turns, toolCallCount, usage } = result;
  metrics.record(runMetric(opts.model, started, { turns, toolCalls: toolCallCount, totalTokens: usage.totalTokens }));
  if (env.token) await signResult(env.token, result);
  // a resumed run that ran again (not a kept outcome returned) settles its conversation
  if (planned?.resumed && result.status !== "pending") await env.finished?.(planned.state, result);
  if (stream) {
    // run() and resume() collect the result alone: only a stream has someone reading events
    yield { type: "usage", usage: result.usage };
    yield { type: "done", result };
  }
  return result;
}

async function* signed(
  token: NonNullable<SessionEnv["token"]>,
  events: AsyncGenerator<StreamEvent, RunResult>,
): AsyncGenerator<StreamEvent, RunResult> {
  try {
    for (;;) {
      const step = await events.next();
      if (step.done) return step.value;
      const event = step.value;
      yield event.type === "pending" && event.runId
        ? { ...event, token: await token(event.runId, event.request) }
        : event;
    }
  } finally {
    await events.return(undefined as never); // a reader that went away ends the run it was reading
  }
}

/** Drains a session for run() and resume(), which only want the result. */
export async function collect(events: AsyncGenerator<StreamEvent, RunResult>): Promise<RunResult> {
  for (;;) {
    const step = await events.next();
    if (step.done) return step.value;
  }
}
