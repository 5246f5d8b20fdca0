// createClient: the parts assembled — options checked once, one storage, one metrics registry, the
// provider wire — with run, stream, resume, inspect, conversations, translate and metrics on top of one
// generator (loop.ts); the run verbs are in client/run-verbs.ts, how runs begin in client/runs.ts, the
// client's shape in client/interface.ts. Everything per run lives in a RunContext, nothing in module state.
import { inspectRun } from "./loop/inspect";
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
import type { ClientOptions } from "./loop/options";
import type { Client, Conversation, ConversationOptions, Inspection, InspectOptions } from "./client/interface";
import type { RunStorage } from "./storage/contract";

export type { ClientOptions, Hooks } from "./loop/options";
export type { AskOptions, ResumeOptions, RunOptions } from "./client/types";
export type { Client, Conversation, ConversationOptions, Inspection, InspectOptions } from "./client/interface";
export type { RunInspection } from "./loop/inspect";
export type { ExpireOptions, ExpireResult } from "./client/expire";

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
  const env = sessionEnv(opts, storage, registry, conversations, clock);
  const runs = runVerbs(env, opts, conversations, clock);
  return {
    ...runs,
    ...conversationVerbs(storage, conversations, runs.ask),
    ...storedRunVerbs(env, { storage, pendingTtlSeconds: opts.pendingTtlSeconds, now: clock }, registry),
    storage,
    pendingTtlSeconds: opts.pendingTtlSeconds,
    clock: { now: clock },
  };
}
