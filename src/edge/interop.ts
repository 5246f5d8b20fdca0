// What the AG-UI and useChat endpoints share with the run handler and with each other: the options they
// take, the bounded body, the run a conversation (a thread, a chat) stands at, and the stored suspension
// a decision is checked against — never the history the page sends back.
import { isPlainObject } from "../_internal/json";
import { RunConflictError, stored, ToolnexusError } from "../errors";
import type { Client } from "../client";
import { conversationStore } from "../client/conversations";
import { loadRecord } from "../run-state/check";
import { runKey, type StoredCall } from "../run-state/record";
import type { SuspendedCall } from "../protocol/ag-ui";
import type { EventEncoder } from "../protocol/event-encoder";
import type { RunStorage, SetOptions } from "../storage/contract";
import type { ToolkitLike } from "../tools/types";
import type { Answer, StreamEvent } from "../types";
import type { ErrorPayload } from "./error-body";
import { serveExchange, type Speaks } from "./exchange";
import {
  type Call,
  logOf,
  type RunHandlerContext,
  runOptionsOf,
  resumeOptionsOf,
  type RunHandlerOptions,
} from "./options";
import { readJson } from "./request";
import { aboutRun, checkOwner } from "./run-owner";
import { serve, settle } from "./serve";

/** The options of createAgUiHandler and createUiMessageStreamHandler. */
export interface InteropHandlerOptions {
  /** A client made by createClient or createInProcessClient (its `resumeSecret` checks and issues tokens). */
  client: Client;
  /** The tools every run and resume gets. */
  toolkit?: ToolkitLike;
  /**
   * An agent from `toolnexus/agents` in place of `toolkit` (as createRunHandler's `agent`): its delegations
   * show as the protocol has them, a question from below as the leaf's request with `data.path`.
   */
  agent?: RunHandlerOptions["agent"];
  /** Who is asking (see createRunHandler's `owner`): threads and chats are kept per owner. */
  owner?: (request: Request) => string | null | Promise<string | null>;
  /** Send the model's reasoning to the page. Default false. */
  reasoning?: boolean;
  /** The largest request body read, in bytes. Default 262144 (256 KiB: these protocols re-send the history). */
  maxBodyBytes?: number;
}

/** One request to an interop endpoint: what its exchanges share (as the run handler's), and who asks. */
export type InteropCall = Omit<Call, "opts"> & { opts: InteropHandlerOptions };

/**
 * Interop handler `name`: its settings checked once (bodies up to 256 KiB by default: the history is re-sent),
 * each request served by `post` (and `get`), any other method refused with `refusal`.
 */
export function serveInterop(
  name: string,
  opts: InteropHandlerOptions,
  post: (call: InteropCall) => Promise<Response>,
  get: ((call: InteropCall) => Promise<Response>) | undefined,
  refusal: string,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  return serve(settle(name, opts, 262_144), post, get, refusal);
}

/**
 * A protocol's frames for one exchange: each event through a fresh encoder, its opening events before the
 * first, written out by `write`.
 */
export function encodedFrames<T>(encoder: () => EventEncoder<T>, write: (events: T[]) => string): Speaks["frames"] {
  return () => {
    const current = encoder();
    let started = false;
    return ({ event }) => {
      const head = started ? [] : current.start();
      started = true;
      return write([...head, ...current.encode(event)]);
    };
  };
}

/** A new run of `prompt` in the conversation, its events told in the protocol `speaks` names for its id. */
export function startInterop(
  call: InteropCall,
  conversationId: string,
  prompt: string,
  speaks: (runId: string) => Speaks,
  refusal: (error: unknown) => ErrorPayload,
): Promise<Response> {
  const { opts, storage } = call;
  const runId = `run-${crypto.randomUUID()}`;
  const owner = call.owner ?? undefined;
  const base = runOptionsOf(opts);
  const run = (signal: AbortSignal) => opts.client.stream(prompt, { ...base, signal, runId, conversationId, owner });
  return serveExchange({
    ...call,
    log: logOf(call, runId),
    before: undefined,
    events: (signal) => withCalls(run(signal), storage, conversationId, runId, call.ttl),
    refusal,
    speaks: speaks(runId),
  });
}

/** What a protocol makes of the run a conversation stands at: the answers, their tokens, its speaking. */
export interface InteropAnswers {
  answers: Answer[];
  tokens: string[] | undefined;
  speaks: Speaks;
}

/** The run a conversation stands at, as a resume finds it: its id, its stored calls, and whether it waits. */
export interface ConversationRun {
  runId: string;
  calls: StoredCall[];
  /** Its calls that wait on a request: suspended, not started again, with no result. */
  open: StoredCall[];
  /** The conversation waits on it (its open requests hold it); else it is the latest run, moved on. */
  waiting: boolean;
}

/**
 * The run conversation `conversationId` waits on (else its latest one) resumed with what `decide` makes of
 * it — checked by the protocol against the STORED calls, never the page's copy. A conversation without a run
 * has nothing to answer: a RunConflictError (`finished`).
 */
export async function resumeConversation(
  call: InteropCall,
  conversationId: string,
  decide: (run: ConversationRun) => InteropAnswers | Promise<InteropAnswers>,
): Promise<Response> {
  const { opts, storage } = call;
  const waiting = await waitingRun(storage, conversationId);
  const runId = waiting ?? (await latestRun(storage, conversationId));
  if (runId === undefined)
    throw new RunConflictError("", "toolnexus: this conversation has no run to answer", "finished");
  const before = await checkOwner(call, logOf(call, runId));
  const calls = (await storedCalls(storage, runId)) ?? [];
  const open = calls.filter((c) => c.request && !c.result && !c.started);
  const { answers, tokens, speaks } = await decide({ runId, calls, open, waiting: waiting !== undefined });
  const owner = call.owner ?? undefined;
  const base = resumeOptionsOf(opts);
  const run = (signal: AbortSignal) => opts.client.resumeStream(runId, answers, { ...base, signal, tokens, owner });
  return serveExchange({
    ...call,
    log: logOf(call, runId),
    before,
    events: (signal) => withCalls(run(signal), storage, conversationId, runId, call.ttl),
    refusal: (error) => aboutRun(runId, error),
    speaks,
  });
}

/** The deepest a request body may nest (objects and arrays). */
const MAX_DEPTH = 64;

/** True when `value` nests deeper than `max`: walked level by level, never recursively. */
function tooDeep(value: unknown, max: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > max) return true;
    level = level.flatMap((v) => (v !== null && typeof v === "object" ? Object.values(v as object) : []));
  }
  return false;
}

/** The body as a JSON object, bounded in bytes (while it is read) and in depth: else a 4xx, nothing changed. */
export async function readInteropBody(call: InteropCall): Promise<Record<string, unknown>> {
  const body = await readJson(call.request, call.max);
  if (!isPlainObject(body))
    throw new ToolnexusError("bad_request", "toolnexus: the request body must be a JSON object");
  if (tooDeep(body, MAX_DEPTH))
    throw new ToolnexusError("bad_request", `toolnexus: the request body nests deeper than ${MAX_DEPTH} levels`);
  return body;
}

/** Where a conversation's latest run is kept: a thread's or a chat's resume and replay start there. */
const latestKey = (conversationId: string) => `edge-latest:${conversationId}`;

export const latestRun = (storage: RunStorage, conversationId: string): Promise<string | undefined> =>
  stored("get", latestKey(conversationId), () => storage.get(latestKey(conversationId)));

/** The run a conversation waits on (its open requests hold it), if any. */
export async function waitingRun(storage: RunStorage, conversationId: string): Promise<string | undefined> {
  return (await conversationStore(storage, 10_000).load(conversationId)).record.pendingRunId;
}

/** The stored calls of run `runId` (undefined: no such run). */
export async function storedCalls(storage: RunStorage, runId: string): Promise<StoredCall[] | undefined> {
  const key = runKey(runId);
  const raw = await stored("get", key, () => storage.get(key));
  return raw === undefined ? undefined : loadRecord(runId, raw).calls;
}

/**
 * The run's events, each `pending` with the call it suspended (read from the stored run), and the
 * conversation's latest run noted at the first event (a refused exchange never moves it).
 */
export async function* withCalls(
  events: AsyncIterable<StreamEvent>,
  storage: RunStorage,
  conversationId: string,
  runId: string,
  ttl: SetOptions,
): AsyncGenerator<StreamEvent> {
  let calls: StoredCall[] | undefined;
  let first = true;
  for await (const event of events) {
    if (first) await stored("set", latestKey(conversationId), () => storage.set(latestKey(conversationId), runId, ttl));
    first = false;
    if (event.type !== "pending" || !event.runId) {
      yield event;
      continue;
    }
    calls ??= (await storedCalls(storage, event.runId)) ?? [];
    const found = calls.find((c) => c.request?.id === event.request.id);
    const call: SuspendedCall | undefined = found ? { id: found.id, name: found.name } : undefined;
    yield (call ? { ...event, call } : event) as StreamEvent;
  }
}
