// How a client's runs begin: the context every session of one client shares (wire, key, storage, metrics,
// tokens, approvals), a new run's plan from its prompt, and a resume's plan (its answers and tokens checked).
import { ConfigError, InvalidAnswerError, shown } from "../errors";
import { drive } from "../loop";
import { newRunId, zeroUsage, type LoopState, type ResolvedOptions, type RunContext } from "../loop/context";
import { prepareResume } from "../loop/resume";
import { recordStore } from "../run-state/store";
import { toToolkit } from "../tools/toolkit";
import type { Answer, PendingRequest } from "../types";
import type { Prompt, ResumeOptions, RunOptions } from "./types";
import type { RunStorage } from "../storage/contract";
import { wireOf } from "../wire/load";
import { approvalMemory, checkOwner } from "./approvals";
import type { conversationStore } from "./conversations";
import { envApiKey } from "./env";
import type { createMetrics } from "./metrics";
import { issueToken } from "./resume-token/codec";
import { resumeTokenCheck } from "./resume-token/verify";
import type { Plan, SessionEnv } from "./session";

const RUN_ID = /^[A-Za-z0-9_.:-]{8,128}$/;

/** A caller-chosen run id, checked where it is passed. */
export function checkRunId(runId: unknown): void {
  if (runId !== undefined && (typeof runId !== "string" || !RUN_ID.test(runId)))
    throw new ConfigError("runId", `toolnexus: runId must be 8 to 128 of A-Z a-z 0-9 - _ . :, got ${shown(runId)}`);
}

/** `answer | answers` as a list; a missing answer is refused before anything is read. */
function answerList(answer: Answer | readonly Answer[]): readonly Answer[] {
  let list: readonly Answer[];
  try {
    list = Array.isArray(answer) ? [...answer] : [answer];
  } catch {
    throw new InvalidAnswerError("answers", "toolnexus: resume could not read its answers (a getter or proxy threw)");
  }
  list.forEach((a, i) => {
    if (a === null || a === undefined)
      throw new InvalidAnswerError(
        Array.isArray(answer) ? `answers[${i}]` : "answer",
        `toolnexus: resume needs an Answer, got ${a} — build it with answerOutput(id, output)`,
      );
  });
  return list as readonly Answer[];
}

type Conversations = ReturnType<typeof conversationStore>;

/** What every session of one client shares: the context of a run, metrics, tokens, conversations settled. */
export function sessionEnv(
  opts: ResolvedOptions,
  storage: RunStorage,
  registry: ReturnType<typeof createMetrics>,
  conversations: Conversations,
  now: () => number,
): SessionEnv {
  const wire = wireOf(opts.style);
  // an explicit `apiKey` (even undefined) turns the environment lookup off
  const apiKey = (): string | undefined =>
    "apiKey" in opts ? opts.apiKey || undefined : envApiKey(opts.style, opts.baseUrl);
  const secret = opts.resumeSecret;
  const records = recordStore({ ...opts, storage, now });
  const env: SessionEnv = {
    opts,
    context: async (toolkit, signal, stream, owner): Promise<RunContext> => ({
      opts,
      wire,
      apiKey: apiKey(),
      toolkit: toToolkit(toolkit),
      storage,
      records,
      metrics: env,
      stream,
      signal,
      maxTurns: opts.maxTurns,
      warn: (m) => console.warn(m),
      approvals: approvalMemory(storage, checkOwner(owner), opts.pendingTtlSeconds),
    }),
    record(event, onMetric = opts.onMetric) {
      registry.record(event);
      onMetric?.(event);
    },
    // the secret was checked with the other options
    ...(secret === undefined
      ? {}
      : {
          // issued and timed by the client's clock, as its deadlines are
          token: (runId, pending) => {
            const at = now();
            return issueToken(runId, pending.id, secret, tokenTtl(opts.pendingTtlSeconds, pending, at), at);
          },
        }),
    async finished(state, result) {
      if (state.conversationId !== undefined)
        await conversations.settle(state.conversationId, state.runId, result.messages);
    },
  };
  return env;
}

/**
 * How long a token for a run kept "for ever" (pendingTtlSeconds 0) is good for: a year (365 days), a literal
 * as client/options.ts's defaults are (a bundler keeps an operation at module scope in every bundle).
 */
const FOREVER_TOKEN_SECONDS = 31_536_000;

/**
 * How long an issued token is good for: as long as its run stays resumable — `pendingTtlSeconds`, or until the
 * request's `expiresAt` when that is later (the halted run is kept as long, run-state/ttl.ts) — so a page can always
 * send its answer, or its decline, to a question still open; past `expiresAt` an ok answer counts as expired.
 */
export function tokenTtl(pendingTtlSeconds: number, request: PendingRequest, now: number): number {
  const ttl = pendingTtlSeconds > 0 ? pendingTtlSeconds : FOREVER_TOKEN_SECONDS;
  const expires = request.expiresAt === undefined ? Number.NaN : Date.parse(request.expiresAt);
  return Number.isFinite(expires) ? Math.max(ttl, (expires - now) / 1000) : ttl;
}

/** A new run's plan: its state from the prompt (and history), then the loop. */
export function freshPlan(
  opts: ResolvedOptions,
  prompt: Prompt,
  runOptions: RunOptions,
  conversationId?: string,
): Plan {
  return async (ctx) => {
    const system = runOptions.systemPrompt ?? opts.systemPrompt ?? "";
    const state: LoopState = {
      runId: runOptions.runId ?? newRunId(),
      model: runOptions.model ?? opts.model,
      system,
      messages: ctx.wire.start(system, runOptions.history ?? [], prompt),
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

/** A resume's plan: the answers checked, the resume token checked (on the client's clock), then the resume path. */
export function resumePlans(opts: ResolvedOptions, now: () => number) {
  const tokenGuard = resumeTokenCheck(opts.resumeSecret, opts.requireResumeToken === true, now);
  return (runId: string, answer: Answer | readonly Answer[], runOptions: ResumeOptions): Plan =>
    async (ctx) => {
      const answers = answerList(answer);
      return prepareResume(ctx, runId, answers, await tokenGuard(runId, runOptions));
    };
}
