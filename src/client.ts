// createClient: options resolved once; run, stream, resume, conversations, translate and metrics on top
// of one generator (loop.ts). Everything per run lives in a RunContext, nothing in module state.
import { envApiKey } from "./client/env";
import { RunConflictError } from "./errors";
import { drive } from "./loop";
import { newRunId, resultOf, zeroUsage, type LoopState, type RunContext } from "./loop/context";
import { anySignal } from "./_internal/signals";
import type { Resumption } from "./loop/resume";
import { createMetrics } from "./client/metrics";
import type { ClientOptions, ResumeOptions, RunOptions } from "./types";
import { checkResumeConfig } from "./client/resume-token/secret";
import { memoryStorage } from "./storage/memory";
import { toToolkit } from "./tools/toolkit";
import type { TranslateRequest, TranslateResult } from "./client/translate";
import type { Answer, RunResult, StreamEvent } from "./types";
import { loadWire } from "./wire/load";
import type { Wire } from "./wire/types";

export type { ClientOptions, ResumeOptions, RunOptions, Hooks } from "./types";

export interface AskOptions extends RunOptions {
  /** A conversation id: its transcript is loaded from and saved to the client's storage. */
  id?: string;
}

export interface Conversation {
  readonly id: string;
  send(prompt: string, opts?: { signal?: AbortSignal }): Promise<RunResult>;
  messages(): Promise<unknown[]>;
  reset(): Promise<void>;
}

export interface Client {
  run(prompt: string, opts?: RunOptions): Promise<RunResult>;
  stream(prompt: string, opts?: RunOptions): AsyncIterable<StreamEvent>;
  resume(runId: string, answer: Answer, opts?: ResumeOptions): Promise<RunResult>;
  resumeStream(runId: string, answer: Answer, opts?: ResumeOptions): AsyncIterable<StreamEvent>;
  ask(prompt: string, opts?: AskOptions): Promise<RunResult>;
  forget(id: string): Promise<void>;
  conversation(opts?: { id?: string; toolkit?: RunOptions["toolkit"] }): Conversation;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  metrics(): string;
}

type Plan = (ctx: RunContext) => Promise<Resumption>;

async function collect(events: AsyncGenerator<StreamEvent, RunResult>): Promise<RunResult> {
  for (;;) {
    const step = await events.next();
    if (step.done) return step.value;
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function createClient(options: ClientOptions): Client {
  for (const key of ["baseUrl", "model"] as const) {
    if (typeof options?.[key] !== "string" || !options[key])
      throw new TypeError(`toolnexus: createClient needs a ${key} string`);
  }
  if (options.style !== "openai" && options.style !== "anthropic")
    throw new TypeError('toolnexus: createClient style must be "openai" or "anthropic"');
  const opts = { ...options };
  // the provider wire, translate and resume load on first use, so a page only downloads what it runs
  // kept once loaded, so later runs need no `await import`; concurrent first runs share the module system's cache
  let wire: Wire | undefined;
  const storage = opts.storage ?? memoryStorage();
  checkResumeConfig(opts.resumeSecret, opts.requireResumeToken === true);
  let checkToken: ReturnType<typeof import("./client/resume-token/verify").resumeTokenCheck> | undefined;
  const resumePlan =
    (runId: string, answer: Answer, ro: ResumeOptions): Plan =>
    async (ctx) => {
      const { prepareResume } = await import("./loop/resume");
      let guard: Awaited<ReturnType<NonNullable<typeof checkToken>>>;
      if (ro.token !== undefined || opts.requireResumeToken) {
        const { resumeTokenCheck } = await import("./client/resume-token/verify");
        guard = await (checkToken ??= resumeTokenCheck(opts.resumeSecret, opts.requireResumeToken === true))(
          runId,
          ro.token,
        );
      }
      return prepareResume(ctx, runId, answer, guard);
    };
  const registry = createMetrics();
  const metrics = {
    record: (event: Parameters<typeof registry.record>[0]) => {
      registry.record(event);
      opts.onMetric?.(event);
    },
    render: () => registry.render(),
  };
  // an explicit `apiKey` (even undefined) turns the environment lookup off
  const apiKey = (): string | undefined => ("apiKey" in opts ? opts.apiKey || undefined : envApiKey(opts.style));

  async function context(
    toolkit: RunOptions["toolkit"],
    signal: AbortSignal | undefined,
    stream: boolean,
  ): Promise<RunContext> {
    return {
      opts,
      wire: wire ?? (wire = await loadWire(opts.style)),
      apiKey: apiKey(),
      toolkit: toToolkit(toolkit),
      storage,
      metrics,
      stream,
      signal,
      maxTurns: opts.maxTurns ?? 10,
      warn: (m) => console.warn(m),
    };
  }

  async function* session(ro: RunOptions, stream: boolean, plan: Plan): AsyncGenerator<StreamEvent, RunResult> {
    // a controller only for the timeout (the caller's signal is used as it is); with neither, no signal at
    // all — nothing could abort the run, and in Node an AbortController costs microseconds
    const deadline = opts.timeoutMs !== undefined ? new AbortController() : undefined;
    let timeout: Error | undefined; // made when it fires: an Error costs microseconds
    const timer = deadline
      ? setTimeout(() => deadline.abort((timeout = new Error(`run timeout after ${opts.timeoutMs}ms`))), opts.timeoutMs)
      : undefined;
    const signal = deadline && ro.signal ? anySignal([deadline.signal, ro.signal]) : (deadline?.signal ?? ro.signal);
    const started = Date.now();
    let state: LoopState | undefined;
    let result: RunResult;
    try {
      const planned = await plan(await context(ro.toolkit, signal, stream));
      state = planned.state;
      result = planned.finished ?? (yield* planned.events!);
    } catch (error) {
      const runMetric = {
        event: "run" as const,
        model: opts.model,
        turns: state?.turns ?? 0,
        toolCalls: state?.toolCalls.length ?? 0,
        totalTokens: state?.usage.totalTokens ?? 0,
        ms: Date.now() - started,
      };
      if (!signal?.aborted || !state) {
        metrics.record({ ...runMetric, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
      result = resultOf(state, "incomplete", {
        limit: timeout !== undefined && signal!.reason === timeout ? "timeout" : "aborted",
      });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    metrics.record({
      event: "run",
      model: opts.model,
      turns: result.turns,
      toolCalls: result.toolCallCount,
      totalTokens: result.usage.totalTokens,
      ms: Date.now() - started,
    });
    if (state?.conversationId !== undefined && result.status !== "pending")
      await (await conversations()).save(state.conversationId, { messages: result.messages });
    if (stream) {
      // run() and resume() collect the result alone: only a stream has someone reading events
      yield { type: "usage", usage: result.usage };
      yield { type: "done", result };
    }
    return result;
  }

  function fresh(prompt: string, ro: RunOptions, conversationId?: string): Plan {
    return async (ctx) => {
      const system = opts.systemPrompt ?? "";
      const state: LoopState = {
        runId: newRunId(),
        model: opts.model,
        system,
        messages: ctx.wire.start(system, ro.history ?? [], prompt),
        tools: ctx.wire.declare(ctx.toolkit),
        toolCalls: [],
        turns: 0,
        usage: zeroUsage(),
        text: "",
        ...(conversationId === undefined ? {} : { conversationId }),
        startedAt: Date.now(),
      };
      return { state, events: drive(ctx, state) };
    };
  }

  const conversations = () => import("./client/conversations").then((m) => m.conversationStore(storage));

  const client: Client = {
    run: (prompt, ro = {}) => collect(session(ro, false, fresh(prompt, ro))),
    stream: (prompt, ro = {}) => session(ro, true, fresh(prompt, ro)),
    resume: (runId, answer, ro = {}) => collect(session(ro, false, resumePlan(runId, answer, ro))),
    resumeStream: (runId, answer, ro = {}) => session(ro, true, resumePlan(runId, answer, ro)),

    async ask(prompt, ao = {}) {
      if (ao.id === undefined) return client.run(prompt, ao);
      const id = ao.id;
      const store = await conversations();
      const conv = await store.load(id);
      if (conv.pendingRunId) {
        throw new RunConflictError(
          conv.pendingRunId,
          `toolnexus: conversation "${id}" waits on run "${conv.pendingRunId}" — resume it with client.resume(runId, answer), or discard it with client.forget(id)`,
        );
      }
      const result = await collect(session(ao, false, fresh(prompt, { ...ao, history: conv.messages }, id)));
      if (result.status === "pending") await store.save(id, { messages: conv.messages, pendingRunId: result.runId! });
      return result;
    },

    forget: async (id) => (await conversations()).forget(id),

    conversation(co = {}) {
      const id = co.id ?? `conv-${crypto.randomUUID()}`;
      return {
        id,
        send: (prompt, so = {}) => client.ask(prompt, { ...so, id, ...(co.toolkit ? { toolkit: co.toolkit } : {}) }),
        messages: async () => (await (await conversations()).load(id)).messages,
        reset: () => client.forget(id),
      };
    },

    async translate(req) {
      const [{ translateCall }, ctx] = await Promise.all([
        import("./client/translate-call"),
        context(req.toolkit, req.signal, false),
      ]);
      return translateCall(ctx, req);
    },

    metrics: () => metrics.render(),
  };
  return client;
}
