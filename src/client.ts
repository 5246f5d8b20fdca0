// createClient: the parts assembled — options checked once, one storage, one metrics registry, the
// provider wire — with run, stream, resume, inspect, conversations, translate and metrics on top of one
// generator (loop.ts); the run verbs are in client/run-verbs.ts, how runs begin in client/runs.ts. Everything per run lives in a RunContext,
// nothing in module state.
import { inspectRun, type RunInspection } from "./loop/inspect";
import { checkOwner, conversationApprovalsKey } from "./client/approvals";
import { ownedConversation } from "./client/approvals-admin";
import { conversationStore } from "./client/conversations";
import { createMetrics } from "./client/metrics";
import { resolveOptions } from "./client/options";
import { sessionEnv } from "./client/runs";
import { runVerbs } from "./client/run-verbs";
import type { SessionEnv } from "./client/session";
import type { TranslateRequest, TranslateResult } from "./client/translate";
import { translateCall } from "./client/translate-call";
import { continueDue, expireDue, type ExpireOptions, type ExpireResult } from "./client/expire";
import { memoryStorage } from "./storage/memory";
import { RunConflictError } from "./errors";
import type { Answer, RunResult, StreamEvent } from "./types";
import type { ClientOptions, Clock } from "./loop/options";
import type { ToolInputSchema } from "./tools/types";
import type { AskOptions, Prompt, ResumeOptions, RunOptions, Typed, WithOutput } from "./client/types";
import type { RunStorage } from "./storage/contract";

export type { ClientOptions, Hooks } from "./loop/options";
export type { AskOptions, ResumeOptions, RunOptions } from "./client/types";
export type { RunInspection } from "./loop/inspect";
export type { ExpireOptions, ExpireResult } from "./client/expire";

/** A conversation's id (default: a fresh one) and the toolkit its exchanges run with. */
export interface ConversationOptions {
  id?: string;
  toolkit?: RunOptions["toolkit"];
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
  /**
   * Discards a conversation: its transcript, the run it waits on, and the approvals remembered for it. With
   * `owner`, the conversation of that signed-in user at a createRunHandler({ owner }) endpoint.
   */
  forget(id: string, opts?: { owner?: string }): Promise<void>;
  conversation(opts?: ConversationOptions): Conversation;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  metrics(): string;
  /** The storage its runs and conversations live in (an edge handler keeps its event logs there too). */
  readonly storage: RunStorage;
  /**
   * How long a halted run is kept, in seconds (the `pendingTtlSeconds` option; 0 = no expiry). Read-only; an
   * edge handler keeps its event logs and owner stamps as long by default.
   */
  readonly pendingTtlSeconds: number;
  /** The client's time source (the `clock` option, else the system clock): deadlines, TTLs and leases read it. */
  readonly clock: Clock;
}

export interface InspectOptions {
  /** The run's tools: a run whose deadline passed is continued before it is reported. */
  toolkit?: RunOptions["toolkit"];
}

/** The verbs of conversations: `forget` one (its transcript and remembered approvals), hold one by its id. */
function conversationVerbs(
  storage: RunStorage,
  conversations: ReturnType<typeof conversationStore>,
  ask: Client["ask"],
): Pick<Client, "forget" | "conversation"> {
  async function forget(id: string, forgetOptions: { owner?: string } = {}): Promise<void> {
    const owner = checkOwner(forgetOptions.owner);
    const stored = owner === undefined ? id : await ownedConversation(id, owner);
    await conversations.forget(stored);
    await storage.delete(conversationApprovalsKey(stored));
  }
  function conversation(conversationOptions: ConversationOptions = {}): Conversation {
    const id = conversationOptions.id ?? `conv-${crypto.randomUUID()}`;
    const { toolkit } = conversationOptions;
    return {
      id,
      send: (prompt, sendOptions = {}) => ask(prompt, { ...sendOptions, id, toolkit }),
      messages: async () => (await conversations.load(id)).record.messages,
      reset: () => forget(id),
    };
  }
  return { forget, conversation };
}

/** The verbs over stored runs and the client's parts: inspect, expire, translate, metrics. */
function storedRunVerbs(
  env: SessionEnv,
  expiry: Parameters<typeof expireDue>[1],
  registry: ReturnType<typeof createMetrics>,
): Pick<Client, "inspect" | "expire" | "translate" | "metrics"> {
  return {
    /** Where a stored run stands, with fresh tokens for its open requests when the client signs them. */
    async inspect(runId: string, inspectOptions: InspectOptions = {}): Promise<Inspection | undefined> {
      // another caller continuing it first is fine: it is reported as that left it
      if (inspectOptions.toolkit)
        await continueDue(env, inspectOptions.toolkit, runId).catch((error: unknown) => {
          if (!(error instanceof RunConflictError)) throw error;
        });
      const ctx = await env.context(undefined, undefined, false);
      const found = await inspectRun(ctx, runId);
      if (!found || !env.token || found.requests.length === 0) return found;
      const signed = await Promise.all(found.requests.map((r) => env.token!(runId, r)));
      const tokens = Object.fromEntries(found.requests.map((r, i) => [r.id, signed[i]!]));
      return { ...found, token: signed[0]!, tokens };
    },
    expire(expireOptions: ExpireOptions): Promise<ExpireResult> {
      return expireDue(env, expiry, expireOptions);
    },
    async translate(request: TranslateRequest): Promise<TranslateResult> {
      const ctx = await env.context(request.toolkit, request.signal, false);
      return translateCall(ctx, request);
    },
    metrics(): string {
      return registry.render();
    },
  };
}

/* @__NO_SIDE_EFFECTS__ */
export function createClient(options: ClientOptions): Client {
  const opts = resolveOptions(options);
  const storage = opts.storage ?? memoryStorage();
  const registry = createMetrics();
  const clock = () => opts.clock?.now() ?? Date.now();
  const conversations = conversationStore(storage, opts.claimLeaseMs, clock);
  const env = sessionEnv(opts, storage, registry, conversations);
  const runs = runVerbs(env, opts, conversations);
  return {
    ...runs,
    ...conversationVerbs(storage, conversations, runs.ask),
    ...storedRunVerbs(env, { storage, pendingTtlSeconds: opts.pendingTtlSeconds, now: clock }, registry),
    storage,
    pendingTtlSeconds: opts.pendingTtlSeconds,
    clock: { now: clock },
  };
}
