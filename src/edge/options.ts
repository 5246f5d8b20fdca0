// What createRunHandler is given, and what each request it serves carries through the edge.
import type { Client } from "../client";
import type { RunStorage, SetOptions } from "../storage/contract";
import type { ToolkitLike } from "../tools/types";
import type { ResumeOptions, RunOptions } from "../client/types";
import { ExchangeLog } from "./exchange-log";
import type { ExchangePlan } from "./exchange";
import type { HeldWaits } from "./held-waits";

/** What a run of the handler gets: its agent's options, else its toolkit. */
export const runOptionsOf = (opts: Pick<RunHandlerOptions, "client" | "toolkit" | "agent">): RunOptions =>
  opts.agent ? opts.agent.runOptions(opts.client) : { toolkit: opts.toolkit };

/**
 * What a resume of the handler gets: the same, without what a stored run keeps for itself (its system prompt
 * and model) — an agent's tools, waitFor, hooks, onMetric and maxTurns hold on every exchange of its run.
 */
export function resumeOptionsOf(opts: Pick<RunHandlerOptions, "client" | "toolkit" | "agent">): ResumeOptions {
  const { systemPrompt: _prompt, model: _model, ...resume } = runOptionsOf(opts);
  return resume;
}

export interface RunHandlerOptions {
  /** A client made by createClient or createInProcessClient (its `resumeSecret` checks and issues tokens). */
  client: Client;
  /** The tools every run and resume gets. */
  toolkit?: ToolkitLike;
  /**
   * An agent from `toolnexus/agents` in place of `toolkit`: the page talks to it as to a run (its soul, model,
   * tools and team; a question from below arrives as a `pending` event with the leaf's request and `data.path`).
   */
  agent?: { readonly name: string; runOptions(client: Client): RunOptions };
  /** The largest request body read, in bytes, counted while reading. Default 65536 (64 KiB). */
  maxBodyBytes?: number;
  /**
   * Who is asking (e.g. the user id from the host's session cookie or JWT); `null` for an anonymous caller.
   * A new run is stamped with it, and a run stamped with another owner is answered exactly as an unknown run
   * (404). Conversations are kept per owner. Without it, a run's id is all it takes to act on the run.
   */
  owner?: (request: Request) => string | null | Promise<string | null>;
  /**
   * How long a run's event log and owner stamp are kept after its latest exchange, in seconds; 0 = no expiry.
   * Default: the client's `pendingTtlSeconds` (rounded up to whole seconds), so they live as long as its halted
   * runs — 604800 (7 days) for a client that did not set it, or that createClient did not make.
   */
  ttlSeconds?: number;
  /** Forward `reasoning` events to the page (and keep them in the log). Default false. */
  reasoning?: boolean;
  /**
   * How many waits one caller may keep open at once in this isolate — a prompt sent with `stopped` waiting
   * for the exchange it stopped, a restore of a run another resume holds — per owner (an anonymous caller: per
   * conversation or run). Past it, 429 `too_many_requests`. Default 8.
   */
  maxHeldWaits?: number;
}

/** What a Worker's fetch handler gets as its third argument: `waitUntil` keeps an exchange going after its page left. */
export interface RunHandlerContext {
  waitUntil?(promise: Promise<unknown>): void;
}

/** One request: the handler's settings and what its exchanges share, then who asks (`owner`) and how. */
export interface Call extends Pick<ExchangePlan, "visible" | "running" | "request" | "owner" | "waitUntil"> {
  opts: RunHandlerOptions;
  max: number;
  storage: RunStorage;
  ttl: SetOptions;
  /** The waits callers hold open in this isolate (held-waits.ts). */
  waits: HeldWaits;
}

/** The exchange log of run `runId`, in the handler's storage and with its TTL. */
export function logOf(call: Pick<Call, "storage" | "ttl">, runId: string): ExchangeLog {
  return new ExchangeLog(call.storage, runId, call.ttl);
}
