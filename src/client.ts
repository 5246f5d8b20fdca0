// createClient: options resolved once; run, stream, resume, conversations, translate and metrics on top
// of one generator (loop.ts). Everything per run lives in a RunContext, nothing in module state.
import { envApiKey } from "./env";
import { RunConflictError, RunStateError, StorageError } from "./errors";
import { drive } from "./loop";
import { shapeBody, send } from "./loop/call-model";
import { newRunId, resultOf, zeroUsage, type LoopState, type RunContext } from "./loop/context";
import { anySignal } from "./loop/execute-tools";
import { conversationKey, runKey } from "./loop/halt";
import { prepareResume, type Resumption } from "./loop/resume";
import { createMetrics } from "./metrics";
import type { ClientOptions, ResumeOptions, RunOptions } from "./options";
import { resumeTokenCheck } from "./resume-token";
import { memoryStorage } from "./storage/memory";
import { toToolkit } from "./toolkit";
import { translateBody, translateResponse, type TranslateRequest, type TranslateResult } from "./translate";
import type { Answer, RunResult, StreamEvent } from "./types";
import { anthropicWire } from "./wire/anthropic";
import { openaiWire } from "./wire/openai";

export type { ClientOptions, ResumeOptions, RunOptions, Hooks } from "./options";

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
    if (typeof options?.[key] !== "string" || !options[key]) throw new TypeError(`toolnexus: createClient needs a ${key} string`);
  }
  if (options.style !== "openai" && options.style !== "anthropic") throw new TypeError('toolnexus: createClient style must be "openai" or "anthropic"');
  const opts = { ...options };
  const wire = opts.style === "openai" ? openaiWire : anthropicWire;
  const storage = opts.storage ?? memoryStorage();
  const checkToken = resumeTokenCheck(opts.resumeSecret, opts.requireResumeToken === true);
  const resumePlan = (runId: string, answer: Answer, ro: ResumeOptions): Plan => async (ctx) => prepareResume(ctx, runId, answer, await checkToken(runId, ro.token));
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

  function context(toolkit: RunOptions["toolkit"], signal: AbortSignal, stream: boolean): RunContext {
    return { opts, wire, apiKey: apiKey(), toolkit: toToolkit(toolkit), storage, metrics, stream, signal, maxTurns: opts.maxTurns ?? 10, warn: (m) => console.warn(m) };
  }

  async function* session(ro: RunOptions, stream: boolean, plan: Plan): AsyncGenerator<StreamEvent, RunResult> {
    const deadline = new AbortController();
    const timeout = new Error(`run timeout after ${opts.timeoutMs}ms`);
    const timer = opts.timeoutMs !== undefined ? setTimeout(() => deadline.abort(timeout), opts.timeoutMs) : undefined;
    const signal = ro.signal ? anySignal([deadline.signal, ro.signal]) : deadline.signal;
    const ctx = context(ro.toolkit, signal, stream);
    const started = Date.now();
    let state: LoopState | undefined;
    let result: RunResult;
    try {
      const planned = await plan(ctx);
      state = planned.state;
      result = planned.finished ?? (yield* planned.events!);
    } catch (error) {
      const runMetric = { event: "run" as const, model: opts.model, turns: state?.turns ?? 0, toolCalls: state?.toolCalls.length ?? 0, totalTokens: state?.usage.totalTokens ?? 0, ms: Date.now() - started };
      if (!signal.aborted || !state) {
        metrics.record({ ...runMetric, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
      result = resultOf(state, "incomplete", { limit: signal.reason === timeout ? "timeout" : "aborted" });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    metrics.record({ event: "run", model: opts.model, turns: result.turns, toolCalls: result.toolCallCount, totalTokens: result.usage.totalTokens, ms: Date.now() - started });
    if (state?.conversationId !== undefined && result.status !== "pending") await saveConversation(state.conversationId, { messages: result.messages });
    yield { type: "usage", usage: result.usage };
    yield { type: "done", result };
    return result;
  }

  function fresh(prompt: string, ro: RunOptions, conversationId?: string): Plan {
    return async (ctx) => {
      const system = opts.systemPrompt ?? "";
      const state: LoopState = {
        runId: newRunId(),
        model: opts.model,
        system,
        messages: wire.start(system, ro.history ?? [], prompt),
        tools: wire.declare(ctx.toolkit),
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

  interface ConversationRecord {
    v: 1;
    messages: unknown[];
    pendingRunId?: string;
  }

  async function loadConversation(id: string): Promise<ConversationRecord> {
    const key = conversationKey(id);
    const raw = await storage.get(key).catch((cause) => Promise.reject(new StorageError("get", key, cause)));
    if (raw === undefined) return { v: 1, messages: [] };
    try {
      const value = JSON.parse(raw) as ConversationRecord;
      if (value?.v === 1 && Array.isArray(value.messages)) return value;
    } catch {}
    throw new RunStateError(`toolnexus: stored conversation "${id}" is corrupt — forget(id) discards it`);
  }

  async function saveConversation(id: string, value: Omit<ConversationRecord, "v">): Promise<void> {
    const key = conversationKey(id);
    const raw = JSON.stringify({ v: 1, ...value });
    await storage.set(key, raw).catch((cause) => Promise.reject(new StorageError("set", key, cause, raw)));
  }

  const client: Client = {
    run: (prompt, ro = {}) => collect(session(ro, false, fresh(prompt, ro))),
    stream: (prompt, ro = {}) => session(ro, true, fresh(prompt, ro)),
    resume: (runId, answer, ro = {}) => collect(session(ro, false, resumePlan(runId, answer, ro))),
    resumeStream: (runId, answer, ro = {}) => session(ro, true, resumePlan(runId, answer, ro)),

    async ask(prompt, ao = {}) {
      if (ao.id === undefined) return client.run(prompt, ao);
      const id = ao.id;
      const conv = await loadConversation(id);
      if (conv.pendingRunId) {
        throw new RunConflictError(conv.pendingRunId, `toolnexus: conversation "${id}" waits on run "${conv.pendingRunId}" — resume it with client.resume(runId, answer), or discard it with client.forget(id)`);
      }
      const result = await collect(session(ao, false, fresh(prompt, { ...ao, history: conv.messages }, id)));
      if (result.status === "pending") await saveConversation(id, { messages: conv.messages, pendingRunId: result.runId! });
      return result;
    },

    async forget(id) {
      const conv = await loadConversation(id).catch(() => undefined);
      if (conv?.pendingRunId) await storage.delete(runKey(conv.pendingRunId));
      await storage.delete(conversationKey(id));
    },

    conversation(co = {}) {
      const id = co.id ?? `conv-${crypto.randomUUID()}`;
      return {
        id,
        send: (prompt, so = {}) => client.ask(prompt, { ...so, id, ...(co.toolkit ? { toolkit: co.toolkit } : {}) }),
        messages: async () => (await loadConversation(id)).messages,
        reset: () => client.forget(id),
      };
    },

    async translate(req) {
      const ctx = context(req.toolkit, req.signal ?? new AbortController().signal, false);
      const hooked = await opts.hooks?.beforeLLM?.({ messages: req.messages, tools: req.tools ?? [], model: opts.model, turn: 0 });
      const input = hooked ? { ...req, messages: hooked.messages ?? req.messages, tools: hooked.tools ?? req.tools } : req;
      const body = shapeBody(ctx, translateBody(opts.style, opts.model, opts.systemPrompt, input));
      const started = Date.now();
      let out: TranslateResult;
      try {
        const json = await (await send(ctx, wire.url(opts.baseUrl), body)).json();
        out = translateResponse(opts.style, opts.model, json);
      } catch (error) {
        metrics.record({ event: "llm", model: opts.model, status: "error", ms: Date.now() - started, promptTokens: 0, completionTokens: 0 });
        throw error;
      }
      metrics.record({ event: "llm", model: opts.model, status: "ok", ms: Date.now() - started, promptTokens: out.usage.promptTokens, completionTokens: out.usage.completionTokens });
      await opts.hooks?.afterLLM?.({ response: out.raw, model: opts.model, turn: 0 });
      return out;
    },

    metrics: () => metrics.render(),
  };
  return client;
}
