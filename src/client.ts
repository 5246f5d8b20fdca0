// createClient: the parts assembled — options checked once, one storage, one metrics registry, the
// provider wire — with run, stream, resume, inspect, conversations, translate and metrics on top of one
// generator (loop.ts); how runs begin is in client/runs.ts. Everything per run lives in a RunContext,
// nothing in module state.
import { inspectRun, type RunInspection } from "./loop/inspect";
import { conversationApprovalsKey } from "./client/approvals";
import { conversationStore } from "./client/conversations";
import { createMetrics } from "./client/metrics";
import { resolveOptions } from "./client/options";
import { clocks } from "./client/clock";
import { checkRunId, freshPlan, resumePlans, sessionEnv } from "./client/runs";
import { collect, session, type SessionEnv } from "./client/session";
import type { TranslateRequest, TranslateResult } from "./client/translate";
import { translateCall } from "./client/translate-call";
import { continueDue, expireDue, type ExpireOptions, type ExpireResult } from "./client/expire";
import { memoryStorage } from "./storage/memory";
import { RunConflictError } from "./errors";
import type {
  Answer,
  ClientOptions,
  InferSchema,
  OutputRunResult,
  Prompt,
  ResumeOptions,
  RunOptions,
  RunResult,
  RunStorage,
  StreamEvent,
  ToolInputSchema,
} from "./types";

export type { ClientOptions, Hooks, ResumeOptions, RunOptions } from "./types";
export type { RunInspection } from "./loop/inspect";
export type { ExpireOptions, ExpireResult } from "./client/expire";

export interface AskOptions extends RunOptions {
  /** A conversation id: its transcript is loaded from and saved to the client's storage. */
  id?: string;
}

export interface Conversation {
  readonly id: string;
  send(prompt: Prompt, opts?: { signal?: AbortSignal }): Promise<RunResult>;
  messages(): Promise<unknown[]>;
  reset(): Promise<void>;
}

/** What `inspect` answers: where the run stands, its open requests, and (with a resumeSecret) their tokens. */
export interface Inspection extends RunInspection {
  /** The token for the first open request. */
  token?: string;
  /** A token per open request, by request id. */
  tokens?: Record<string, string>;
}

/** Options with an `output` schema: the result's `output` is typed from it. */
type WithOutput<O, S extends ToolInputSchema> = O & { output: S };
type Typed<S> = OutputRunResult<InferSchema<S>>;

export interface Client {
  run<S extends ToolInputSchema>(prompt: Prompt, opts: WithOutput<RunOptions, S>): Promise<Typed<S>>;
  run(prompt: Prompt, opts?: RunOptions): Promise<RunResult>;
  stream<S extends ToolInputSchema>(
    prompt: Prompt,
    opts: WithOutput<RunOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  stream(prompt: Prompt, opts?: RunOptions): AsyncIterable<StreamEvent>;
  /** Answers one or several open requests of a halted run, in any order. */
  resume<S extends ToolInputSchema>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts: WithOutput<ResumeOptions, S>,
  ): Promise<Typed<S>>;
  /**
   * Without `output`, the run's stored schema checks the final answer; name its type to have `output` typed:
   * `resume<Forecast>(runId, answer)`.
   */
  resume<O = unknown>(runId: string, answer: Answer | readonly Answer[], opts?: ResumeOptions): Promise<RunResult<O>>;
  resumeStream<S extends ToolInputSchema>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts: WithOutput<ResumeOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  resumeStream<O = unknown>(
    runId: string,
    answer: Answer | readonly Answer[],
    opts?: ResumeOptions,
  ): AsyncIterable<StreamEvent<RunResult<O>>>;
  /**
   * Where a stored run stands and what it waits for (a reloaded page finds its questions again); undefined:
   * unknown run. With `toolkit`, a run whose deadline passed is continued first (semantics 8).
   */
  inspect(runId: string, opts?: InspectOptions): Promise<Inspection | undefined>;
  /** Continues every run whose deadline passed (at most `limit`), found through the storage's deadline index. */
  expire(opts: ExpireOptions): Promise<ExpireResult>;
  ask(prompt: Prompt, opts?: AskOptions): Promise<RunResult>;
  forget(id: string): Promise<void>;
  conversation(opts?: { id?: string; toolkit?: RunOptions["toolkit"] }): Conversation;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  metrics(): string;
  /** The storage its runs and conversations live in (an edge handler keeps its event logs there too). */
  readonly storage: RunStorage;
  /**
   * How long a halted run is kept, in seconds (the `pendingTtlSeconds` option; 0 = no expiry). Read-only; an
   * edge handler keeps its event logs and owner stamps as long by default.
   */
  readonly pendingTtlSeconds: number;
}

export interface InspectOptions {
  /** The run's tools: a run whose deadline passed is continued before it is reported. */
  toolkit?: RunOptions["toolkit"];
}

/** Where a stored run stands, with fresh tokens for its open requests when the client signs them. */
async function inspect(env: SessionEnv, runId: string, io: InspectOptions = {}): Promise<Inspection | undefined> {
  // another caller continuing it first is fine: it is reported as that left it
  if (io.toolkit)
    await continueDue(env, io.toolkit, runId).catch((error: unknown) => {
      if (!(error instanceof RunConflictError)) throw error;
    });
  const ctx = await env.context(undefined, undefined, false);
  const found = await inspectRun(ctx, runId);
  if (!found || !env.token || found.requests.length === 0) return found;
  const signed = await Promise.all(found.requests.map((r) => env.token!(runId, r)));
  const tokens = Object.fromEntries(found.requests.map((r, i) => [r.id, signed[i]!]));
  return { ...found, token: signed[0]!, tokens };
}

/* @__NO_SIDE_EFFECTS__ */
export function createClient(options: ClientOptions): Client {
  const opts = resolveOptions(options);
  const storage = opts.storage ?? memoryStorage();
  const registry = createMetrics();
  const clock = () => opts.clock?.now() ?? Date.now();
  const conversations = conversationStore(storage, opts.claimLeaseMs, clock);
  const env = sessionEnv(opts, storage, registry, conversations);
  const resumed = resumePlans(opts);

  /** A new run — with `conversationId`, the conversation's next exchange (its history in, its outcome saved). */
  async function* started(prompt: Prompt, ro: RunOptions, stream: boolean): AsyncGenerator<StreamEvent, RunResult> {
    checkRunId(ro.runId);
    const id = ro.conversationId;
    if (id === undefined) return yield* session(env, ro, stream, freshPlan(opts, prompt, ro));
    return yield* conversations.exchange(id, (history) =>
      session(env, ro, stream, freshPlan(opts, prompt, { ...ro, history }, id)),
    );
  }

  const client: Client = {
    // one implementation each; the overloads above only type `output` from the schema
    run: ((prompt: Prompt, ro: RunOptions = {}) => collect(started(prompt, ro, false))) as Client["run"],
    stream: ((prompt: Prompt, ro: RunOptions = {}) => started(prompt, ro, true)) as Client["stream"],
    resume: ((runId: string, answer: Answer | readonly Answer[], ro: ResumeOptions = {}) =>
      collect(session(env, ro, false, resumed(runId, answer, ro)))) as Client["resume"],
    resumeStream: ((runId: string, answer: Answer | readonly Answer[], ro: ResumeOptions = {}) =>
      session(env, ro, true, resumed(runId, answer, ro))) as Client["resumeStream"],
    inspect: (runId, io) => inspect(env, runId, io),
    expire: (eo) => expireDue(env, { storage, pendingTtlSeconds: opts.pendingTtlSeconds, now: clock }, eo),

    ask: (prompt, ao = {}) => client.run(prompt, ao.id === undefined ? ao : { ...ao, conversationId: ao.id }),

    forget: async (id) => {
      await conversations.forget(id);
      await storage.delete(conversationApprovalsKey(id));
    },

    conversation(co = {}) {
      const id = co.id ?? `conv-${crypto.randomUUID()}`;
      return {
        id,
        send: (prompt, so = {}) => client.ask(prompt, { ...so, id, ...(co.toolkit ? { toolkit: co.toolkit } : {}) }),
        messages: async () => (await conversations.load(id)).record.messages,
        reset: () => client.forget(id),
      };
    },

    async translate(req) {
      const ctx = await env.context(req.toolkit, req.signal, false);
      return translateCall(ctx, req);
    },

    metrics: () => registry.render(),
    storage,
    pendingTtlSeconds: opts.pendingTtlSeconds,
  };
  clocks.set(client, clock); // an edge handler continues a due run by the client's time
  return client;
}
