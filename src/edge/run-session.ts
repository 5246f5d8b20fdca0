// The page side of a chat widget, headless and framework-neutral: one state snapshot (a new object on
// every change, the same one otherwise — React's useSyncExternalStore contract; `subscribe` calls the
// listener at once, as a Svelte store does), built from the run's events, never from the transcript.
// It talks to an endpoint made by createRunHandler and keeps the open run in Web Storage for reloads.
import { ConfigError, isToolnexusError, NetworkError, shown, type ToolnexusError } from "../errors";
import { answerDeclined } from "../answer";
import type { Answer, PendingRequest, RunResult, StreamEvent } from "../types";
import { abortableSleep } from "../wire/retry-wait";
import { readEventStream, responseError } from "./event-stream";
import {
  defaultStorage,
  load,
  save,
  type Kept,
  type RunSessionMessage,
  type SessionStorageLike,
} from "./session-store";

export type { RunSessionMessage, SessionStorageLike } from "./session-store";

export type RunSessionStatus = "idle" | "streaming" | "waiting" | "done" | "error";

export interface RunSessionState {
  readonly status: RunSessionStatus;
  /** The conversation as the page shows it: prompts, answers given as text, and finished assistant text. */
  readonly messages: readonly RunSessionMessage[];
  /** The assistant text streaming in right now (moved to `messages` when the turn ends). */
  readonly text: string;
  /** The open Requests of the halted run; answer them in any order. */
  readonly requests: readonly PendingRequest[];
  readonly error: { readonly code: string; readonly message: string } | undefined;
  /** The halted run the open requests belong to. */
  readonly runId: string | undefined;
}

export interface RunSessionOptions {
  /** The URL of a createRunHandler endpoint, e.g. `"/api/run"`. */
  endpoint: string | URL;
  /** Default: the global fetch, looked up per call. */
  fetch?: typeof fetch;
  /** Where the open run is kept across reloads: a Web Storage. Default `sessionStorage`; `null` for none. */
  storage?: SessionStorageLike | null;
  /** The storage key. Default `"toolnexus:run-session"`. */
  key?: string;
}

export interface AnswerOptions {
  /** Shown as the user's message, e.g. the chosen option or "Approved". */
  text?: string;
}

export interface RunSession {
  readonly state: RunSessionState;
  /** Calls `listener` with the state now and after every change; returns the unsubscribe. */
  subscribe(listener: (state: RunSessionState) => void): () => void;
  /**
   * Starts the conversation's next run. Ignored while one is streaming. Open questions are declined first
   * (the server's conversation waits on their run until it ends), so the new prompt follows on from them.
   */
  send(prompt: string): Promise<void>;
  /** Answers one or more open Requests (each `answerOutput` / `answerDeclined` / …). Ignored while streaming. */
  answer(answer: Answer | Answer[], opts?: AnswerOptions): Promise<void>;
  /** After a reload: the kept conversation, and the open Requests of the kept run, asked from the endpoint. */
  restore(): Promise<void>;
  /** Stops reading the current stream; the run's text so far stays. */
  abort(): void;
}

const IDLE: RunSessionState = {
  status: "idle",
  messages: [],
  text: "",
  requests: [],
  error: undefined,
  runId: undefined,
};

/** A failure as the page sees it: a ToolnexusError with a code, or a NetworkError for a failed fetch. */
function described(error: unknown): { code: string; message: string } {
  if (isToolnexusError(error)) return { code: error.code, message: error.message };
  return { code: "internal", message: "toolnexus: the run session failed unexpectedly — try again" };
}

/** Errors after which the answered question is not open any more. */
const GONE = new Set(["run_conflict", "run_not_found", "answer_mismatch"]);

const isAbort = (error: unknown, signal: AbortSignal) =>
  signal.aborted || (error as { name?: unknown } | null)?.name === "AbortError";

/** One session's moving parts; the functions below each do one thing to it. */
interface Core {
  state: RunSessionState;
  kept: Kept;
  current: AbortController | undefined;
  /** When the page last stopped a prompt's exchange (`abort()`), ms since the epoch. */
  stoppedAt?: number;
  readonly listeners: Set<(state: RunSessionState) => void>;
  readonly endpoint: string;
  readonly fetch: typeof fetch | undefined;
  readonly storage: SessionStorageLike | undefined;
  readonly key: string;
}

function set(core: Core, patch: Partial<RunSessionState>): void {
  core.state = { ...core.state, ...patch };
  for (const listener of [...core.listeners]) listener(core.state);
}

/** Saves the visible messages and `patch` (an `undefined` runId or tokens removes them). */
function keep(core: Core, patch: Partial<Kept>): void {
  const kept: Kept = { ...core.kept, ...patch, messages: [...core.state.messages] };
  for (const k of ["runId", "tokens"] as const) if (k in patch && patch[k] === undefined) delete kept[k];
  core.kept = kept;
  save(core.storage, core.key, kept);
}

const forget = (core: Core) => keep(core, { runId: undefined, tokens: undefined });

function say(core: Core, role: RunSessionMessage["role"], text: string): void {
  set(core, { messages: [...core.state.messages, { role, text }] });
}

/** The streamed text so far becomes a message. */
function flush(core: Core): void {
  if (core.state.text) {
    set(core, { messages: [...core.state.messages, { role: "assistant", text: core.state.text }], text: "" });
  }
}

/** The page's own fetch: a rejection that is not an abort is a NetworkError. */
async function call(core: Core, url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
  const f = core.fetch ?? globalThis.fetch;
  try {
    return await f(url, { ...init, signal });
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    throw new NetworkError("toolnexus: could not reach the run endpoint — check the connection and try again", {
      cause: error,
    });
  }
}

function finish(core: Core, result: RunResult, streamed: boolean): void {
  // a replayed outcome arrives without text events. Only a done result's text is its own (a pending one's is
  // its prompt); an incomplete one's is what had streamed, maybe in the request that halted before it, shown then
  if (!streamed && result.status === "done" && result.text) say(core, "assistant", result.text);
  if (result.status === "pending") {
    const r = result as RunResult & { requests?: PendingRequest[]; token?: string };
    const requests = r.requests ?? (result.pending ? [result.pending] : []);
    const tokens = { ...core.kept.tokens };
    if (r.token && result.pending) tokens[result.pending.id] ??= r.token; // the token is the first request's
    set(core, { status: "waiting", requests, runId: result.runId });
    keep(core, { runId: result.runId, tokens });
    return;
  }
  forget(core);
  if (result.status !== "incomplete") return set(core, { status: "done", requests: [], runId: undefined });
  const message = `toolnexus: the run stopped early (${result.limit ?? "incomplete"})`;
  set(core, { status: "error", error: { code: "incomplete", message }, requests: [], runId: undefined });
}

function onEvent(core: Core, event: StreamEvent): void {
  if (event.type === "text") return set(core, { text: core.state.text + event.delta });
  flush(core);
  if (event.type !== "pending") return;
  const { requests } = core.state;
  const token = (event as { token?: unknown }).token;
  if (typeof token === "string") keep(core, { tokens: { ...core.kept.tokens, [event.request.id]: token } });
  set(core, {
    requests: requests.some((q) => q.id === event.request.id) ? requests : [...requests, event.request],
    runId: event.runId ?? core.state.runId,
  });
}

/**
 * Posts `body` and plays the events onto the state; `onStopped` sees why a stream ended early before that
 * is shown — a ToolnexusError, or nothing for an abort. For a refusal that came before any event, it may
 * return true: nothing is shown, and stream resolves true (the caller posts again).
 */
async function stream(
  core: Core,
  body: unknown,
  onStopped?: (error?: ToolnexusError) => boolean | void,
): Promise<boolean | void> {
  const controller = new AbortController();
  core.current = controller;
  let streamed = false;
  let started = false;
  try {
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    for await (const event of readEventStream(await call(core, core.endpoint, init, controller.signal))) {
      started = true;
      if (event.type === "text") streamed = true;
      if (event.type === "done") finish(core, event.result, streamed);
      else onEvent(core, event);
    }
  } catch (error) {
    flush(core);
    if (isAbort(error, controller.signal)) {
      onStopped?.();
      return set(core, { status: core.state.requests.length ? "waiting" : "idle" });
    }
    if (isToolnexusError(error) && onStopped?.(error) === true && !started) return true;
    set(core, { status: "error", error: described(error) });
  } finally {
    if (core.current === controller) core.current = undefined;
    keep(core, {});
  }
}

const streaming = (core: Core): boolean => core.state.status === "streaming";

async function send(core: Core, prompt: string): Promise<void> {
  const text = String(prompt ?? "").trim();
  if (streaming(core) || !text) return;
  const open = core.state.runId ? core.state.requests : [];
  if (open.length)
    await answer(
      core,
      open.map((q) => answerDeclined(q.id)),
      {},
    );
  if (streaming(core)) return; // another send started while the questions were declined
  set(core, { status: "streaming", error: undefined, text: "", requests: [], runId: undefined });
  say(core, "user", text);
  forget(core);
  // the exchange this page just stopped holds the conversation until the server has stopped it too (a tool
  // or a model call slow to notice): a prompt sent meanwhile is refused as busy, and waits its turn instead
  const until = (core.stoppedAt ?? Number.NEGATIVE_INFINITY) + STOPPING_WAIT_MS;
  for (;;) {
    const body = { prompt: text, conversationId: core.kept.conversationId };
    const busy = await stream(core, body, (error) => {
      if (!error) core.stoppedAt = Date.now(); // the page stopped this prompt's exchange
      return error?.code === "run_conflict" && BUSY.test(error.message) && Date.now() < until;
    });
    if (busy !== true || !(await pause(core, STOPPING_POLL_MS))) return;
  }
}

/** The conversation store's refusal of a second ask while one runs (client/conversations.ts): it clears. */
const BUSY = /^toolnexus: conversation "[^"]*" is busy with another ask/;

/** How long a prompt sent right after the page stopped an exchange waits for the server to let go of it. */
const STOPPING_WAIT_MS = 10_000;
const STOPPING_POLL_MS = 250;

/** Waits `ms` unless the page aborts meanwhile (then the session is idle); resolves whether it waited. */
async function pause(core: Core, ms: number): Promise<boolean> {
  const controller = new AbortController();
  core.current = controller;
  try {
    await abortableSleep(ms, controller.signal);
    return true;
  } catch {
    set(core, { status: "idle" });
    return false;
  } finally {
    if (core.current === controller) core.current = undefined;
  }
}

async function answer(core: Core, answer: Answer | Answer[], opts: AnswerOptions): Promise<void> {
  const answers = Array.isArray(answer) ? answer : [answer];
  const { runId, requests: open } = core.state;
  if (core.state.status === "streaming" || !runId || answers.length === 0) return;
  const answered = new Set(answers.map((a) => a.id));
  // each answer's own token, in the answers' order; none when the page was given none for one of them
  const own = answers.map((a) => core.kept.tokens?.[a.id]);
  const tokens = own.every((t) => typeof t === "string") ? (own as string[]) : undefined;
  set(core, { status: "streaming", error: undefined, requests: open.filter((q) => !answered.has(q.id)) });
  if (opts.text) say(core, "user", opts.text);
  keep(core, {});
  const body = {
    runId,
    ...(answers.length === 1 ? { answer: answers[0] } : { answers }),
    ...(tokens ? (answers.length === 1 ? { token: tokens[0] } : { tokens }) : {}),
  };
  await stream(core, body, (error) => {
    if (error && GONE.has(error.code)) {
      // answered elsewhere, expired, or not a question of this run: it is not coming back
      set(core, { requests: [], runId: undefined });
      forget(core);
    } else {
      set(core, { requests: open, runId }); // refused, cut off or aborted: the question stays, to be answered again
    }
  });
}

interface InspectBody {
  status?: string;
  requests?: PendingRequest[];
  token?: string;
  tokens?: Record<string, string>;
}

/** How often, and how many times, a reloaded page looks again at a run another resume is still running. */
const RUNNING_POLL_MS = 1_000;
const RUNNING_POLLS = 60;

/** The endpoint's view of run `runId` (GET ?runId=), looked at again while another resume runs it. */
async function inspectKept(core: Core, runId: string, signal: AbortSignal): Promise<InspectBody | undefined> {
  const url = `${core.endpoint}${core.endpoint.includes("?") ? "&" : "?"}runId=${encodeURIComponent(runId)}`;
  for (let polls = 0; ; polls++) {
    const res = await call(core, url, { method: "GET", headers: { accept: "application/json" } }, signal);
    if (!res.ok) {
      const error = await responseError(res);
      if (error.code === "run_not_found") return undefined;
      throw error;
    }
    const body = (await res.json().catch(() => undefined)) as InspectBody | undefined;
    if (body?.status !== "running" || polls >= RUNNING_POLLS) return body;
    await abortableSleep(RUNNING_POLL_MS, signal);
  }
}

async function restore(core: Core): Promise<void> {
  core.kept = load(core.storage, core.key);
  set(core, { ...IDLE, messages: core.kept.messages });
  const runId = core.kept.runId;
  if (!runId) return;
  const controller = new AbortController();
  core.current = controller;
  set(core, { status: "streaming" });
  let body: InspectBody | undefined;
  try {
    body = await inspectKept(core, runId, controller.signal);
  } catch (error) {
    if (isAbort(error, controller.signal)) return set(core, { status: "idle" });
    return set(core, { status: "error", error: described(error) });
  } finally {
    if (core.current === controller) core.current = undefined;
  }
  if (body === undefined) {
    forget(core);
    return set(core, { status: "idle" });
  }
  // its answers were applied but it stopped before finishing (the tab closed mid-resume): continue it
  if (body.status === "ready") {
    const token = Object.values(core.kept.tokens ?? {})[0]; // any token of the run passes with no answers
    await stream(core, { runId, answers: [], ...(token ? { token } : {}) });
    return;
  }
  if (body.status === "running") {
    const message = "toolnexus: the run is still being resumed elsewhere — reload to look again";
    return set(core, { status: "error", error: { code: "run_conflict", message } });
  }
  const requests = Array.isArray(body.requests) ? body.requests : [];
  if (!requests.length) {
    forget(core);
    return set(core, { status: "done" });
  }
  const tokens: Record<string, string> = {};
  for (const q of requests) {
    const token = body.tokens?.[q.id] ?? (q.id === requests[0]?.id ? body.token : undefined);
    if (typeof token === "string") tokens[q.id] = token;
  }
  keep(core, { tokens });
  set(core, { status: "waiting", requests, runId });
}

/* @__NO_SIDE_EFFECTS__ */
export function createRunSession(options: RunSessionOptions): RunSession {
  if (typeof options?.endpoint !== "string" && !(options?.endpoint instanceof URL))
    throw new ConfigError(
      "endpoint",
      `toolnexus: createRunSession needs { endpoint }, the URL of a createRunHandler (e.g. "/api/run"), got ${shown(options?.endpoint)}`,
    );
  const storage = options.storage === null ? undefined : (options.storage ?? defaultStorage());
  const key = options.key ?? "toolnexus:run-session";
  const kept = load(storage, key);
  const core: Core = {
    state: { ...IDLE, messages: kept.messages },
    kept,
    current: undefined,
    listeners: new Set(),
    endpoint: String(options.endpoint),
    fetch: options.fetch,
    storage,
    key,
  };
  return {
    get state() {
      return core.state;
    },
    // an arrow, so `session.subscribe` can be handed on as it is (useSyncExternalStore does)
    subscribe: (listener) => {
      core.listeners.add(listener);
      listener(core.state);
      return () => void core.listeners.delete(listener);
    },
    send: (prompt) => send(core, prompt),
    answer: (a, opts = {}) => answer(core, a, opts),
    restore: () => restore(core),
    abort: () => core.current?.abort(),
  };
}
