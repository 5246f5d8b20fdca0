// The client's options and hooks: what createClient is given and every run reads (checked and given their
// defaults once, in client/options.ts).
import type { Answer, PendingRequest, Style, ToolResult } from "../types";
import type { RunStorage } from "../storage/contract";
import type { ErrorInfo } from "../wire/post";
import type { MetricEvent, Telemetry } from "./telemetry";

type Awaitable<T> = T | Promise<T>;

export interface Hooks {
  /** Before each model call; may replace the messages/tools for the rest of the run. A throw ends the run. */
  beforeLLM?(info: {
    messages: unknown[];
    tools: unknown[];
    model: string;
    turn: number;
  }): Awaitable<void | { messages?: unknown[]; tools?: unknown[] }>;
  /** After each model call, with the raw response (or `{ streamed: true, usage }` when streaming). */
  afterLLM?(info: { response: unknown; model: string; turn: number }): Awaitable<void>;
  /** Before each tool call; may rewrite `args` or short-circuit with a `result` (a suspension too). */
  beforeTool?(info: {
    name: string;
    args: Record<string, unknown>;
    id: string;
    turn: number;
  }): Awaitable<void | { args?: Record<string, unknown>; result?: ToolResult }>;
  /** After each tool call that did not suspend; may replace the result. */
  afterTool?(info: {
    name: string;
    args: Record<string, unknown>;
    result: ToolResult;
    id: string;
    turn: number;
  }): Awaitable<void | { result?: ToolResult }>;
}

/** A time source: `now()` in ms since the epoch, like `Date.now()`. */
export interface Clock {
  now(): number;
}

export interface ClientOptions {
  baseUrl: string;
  style: Style;
  model: string;
  /** Sent as a header only; never stored, logged or put in an error. Absent ⇒ env (Node/Deno) ⇒ no auth header. */
  apiKey?: string;
  headers?: Record<string, string>;
  systemPrompt?: string;
  /** Default 10. Reaching it ends the run `incomplete` with `limit: "maxTurns"`. */
  maxTurns?: number;
  /** Default 2 (0 = one attempt). */
  retries?: number;
  /** Default 500 ms, doubled per attempt, plus jitter. */
  retryBaseMs?: number;
  /** Added to 429, 500, 502, 503, 504, 529. */
  retryableStatuses?: readonly number[];
  /** A whole-run deadline: the run ends `incomplete` with `limit: "timeout"`. */
  timeoutMs?: number;
  /** A per-tool-call deadline: the call becomes an error result `tool <name> timed out after <n>ms`. */
  toolTimeoutMs?: number;
  /** A provider stream that sends nothing this long (ms) ends with a StreamError. Default 300000 (5 min); 0: never. */
  streamIdleTimeoutMs?: number;
  /** A line of a provider stream longer than this (bytes) ends it with a StreamError. Default 67108864 (64 MiB). */
  maxStreamLineBytes?: number;
  onError?: (info: ErrorInfo) => "retry" | "fail";
  hooks?: Hooks;
  onMetric?: (event: MetricEvent) => void;
  /** Shallow-merged into every request body (caller wins); `messages`, `tools`, `stream` are refused. */
  requestParams?: Record<string, unknown>;
  /** Runs last on every request body; return a new body or mutate it. */
  bodyTransform?: (body: Record<string, unknown>) => Record<string, unknown> | void;
  /** The fetch used for model calls. Default `globalThis.fetch`, looked up per call. */
  fetch?: typeof fetch;
  /** Resolves a suspension inline. Absent ⇒ the run halts durably into `storage`. */
  waitFor?: (request: PendingRequest) => Promise<Answer>;
  /** Where halted runs and conversations live. Default `memoryStorage()` (per client). */
  storage?: RunStorage;
  /** How long a finished run's outcome is kept so a repeated identical answer gets it back. Default 86400. */
  completedTtlSeconds?: number;
  /**
   * How long a resume owns a claimed run, in ms (default 60000). Its owner renews it at every checkpoint
   * and gives it back when it goes away; past it, a resume with the same answer takes the run over.
   */
  claimLeaseMs?: number;
  /**
   * Halted runs expire from storage after this many seconds (adapters with TTL), counted from a request's
   * `expiresAt` when it has one. Default 604800 (7 days); 0 keeps them until they are resumed or forgotten.
   */
  pendingTtlSeconds?: number;
  /**
   * A deadline on every Request a run halts on, in seconds (a positive number): past it the run continues by
   * itself as if answered `answerDeclined(id, "expired")`. A tool's own earlier `expiresAt` wins. Default: none.
   */
  answerTimeoutSeconds?: number;
  /** The one time source for deadlines, TTLs and leases (tests pass a fake one). Default the system clock. */
  clock?: Clock;
  /** Verifies `resume(…, { token })` tokens made by `createResumeToken(run, secret)`. Never stored, logged or put in an error. */
  resumeSecret?: string;
  /** With `resumeSecret`: a resume without a token is refused with ResumeTokenError. Default false. */
  requireResumeToken?: boolean;
  /** Observes every run (spans, with `otelTelemetry({ tracer })` from `toolnexus/otel`); never changes one. */
  telemetry?: Telemetry;
}
