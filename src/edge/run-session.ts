// The page side of a chat widget, headless and framework-neutral: one state snapshot (a new object on
// every change, the same one otherwise — React's useSyncExternalStore contract; `subscribe` calls the
// listener at once, as a Svelte store does), built from the run's events, never from the transcript.
// It talks to an endpoint made by createRunHandler and keeps the open run in Web Storage for reloads.
import { isToolnexusError, NetworkError, ToolnexusError, type ToolnexusErrorCode } from "../errors";
import type { Answer, PendingRequest, RunResult, StreamEvent } from "../types";
import { readEventStream } from "./event-stream";
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
  /** Starts a run. Ignored while one is streaming; an open question is left unanswered. */
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

/* @__NO_SIDE_EFFECTS__ */
export function createRunSession(options: RunSessionOptions): RunSession {
  if (typeof options?.endpoint !== "string" && !(options?.endpoint instanceof URL))
    throw new TypeError(
      'toolnexus: createRunSession needs { endpoint }, the URL of a createRunHandler (e.g. "/api/run")',
    );
  const endpoint = String(options.endpoint);
  const storage = options.storage === null ? undefined : (options.storage ?? defaultStorage());
  const key = options.key ?? "toolnexus:run-session";
  const listeners = new Set<(state: RunSessionState) => void>();
  let kept: Kept = load(storage, key);
  let state: RunSessionState = { ...IDLE, messages: kept.messages };
  let current: AbortController | undefined;

  function set(patch: Partial<RunSessionState>): void {
    state = { ...state, ...patch };
    for (const listener of [...listeners]) listener(state);
  }

  function keep(patch: Partial<Kept>): void {
    kept = { ...kept, ...patch, messages: [...state.messages] };
    for (const k of ["runId", "tokens"] as const) if (k in patch && patch[k] === undefined) delete kept[k];
    save(storage, key, kept);
  }

  const say = (role: RunSessionMessage["role"], text: string) => set({ messages: [...state.messages, { role, text }] });

  /** The streamed text so far becomes a message. */
  function flush(): void {
    if (state.text) set({ messages: [...state.messages, { role: "assistant", text: state.text }], text: "" });
  }

  async function call(init: RequestInit & { url?: string }, signal: AbortSignal): Promise<Response> {
    const f = options.fetch ?? globalThis.fetch;
    try {
      return await f(init.url ?? endpoint, { ...init, signal });
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      throw new NetworkError("toolnexus: could not reach the run endpoint — check the connection and try again", {
        cause: error,
      });
    }
  }

  function finish(result: RunResult, streamed: boolean): void {
    // a replayed outcome arrives without text events (a pending result's text is its prompt: not a message)
    if (!streamed && result.status !== "pending" && result.text) say("assistant", result.text);
    if (result.status === "pending") {
      const r = result as RunResult & { requests?: PendingRequest[]; token?: string };
      const requests = r.requests ?? (result.pending ? [result.pending] : []);
      const tokens = { ...kept.tokens };
      if (r.token) for (const q of requests) tokens[q.id] ??= r.token;
      set({ status: "waiting", requests, runId: result.runId });
      keep({ runId: result.runId, tokens });
      return;
    }
    set({ status: "done", requests: [], runId: undefined });
    keep({ runId: undefined, tokens: undefined });
    if (result.status === "incomplete")
      set({
        status: "error",
        error: { code: "incomplete", message: `toolnexus: the run stopped early (${result.limit ?? "incomplete"})` },
      });
  }

  function onEvent(event: StreamEvent): void {
    if (event.type === "text") return set({ text: state.text + event.delta });
    flush();
    if (event.type === "pending") {
      const requests = state.requests.some((q) => q.id === event.request.id)
        ? state.requests
        : [...state.requests, event.request];
      const token = (event as { token?: unknown }).token;
      if (typeof token === "string") keep({ tokens: { ...kept.tokens, [event.request.id]: token } });
      set({ requests, runId: event.runId ?? state.runId });
    }
  }

  /** Posts `body` and plays the events onto the state. */
  async function stream(body: unknown, onRefused?: (error: ToolnexusError) => void): Promise<void> {
    const controller = new AbortController();
    current = controller;
    let streamed = false;
    try {
      const res = await call(
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
        controller.signal,
      );
      for await (const event of readEventStream(res)) {
        if (event.type === "text") streamed = true;
        if (event.type === "done") finish(event.result, streamed);
        else onEvent(event);
      }
    } catch (error) {
      flush();
      if (isAbort(error, controller.signal)) {
        set({ status: state.requests.length ? "waiting" : "idle" });
        return;
      }
      if (isToolnexusError(error)) onRefused?.(error);
      set({ status: "error", error: described(error) });
    } finally {
      if (current === controller) current = undefined;
      keep({});
    }
  }

  const session: RunSession = {
    get state() {
      return state;
    },

    subscribe(listener) {
      listeners.add(listener);
      listener(state);
      return () => void listeners.delete(listener);
    },

    async send(prompt) {
      const text = String(prompt ?? "").trim();
      if (state.status === "streaming" || !text) return;
      set({ status: "streaming", error: undefined, text: "", requests: [], runId: undefined });
      say("user", text);
      keep({ runId: undefined, tokens: undefined });
      await stream({ prompt: text, conversationId: kept.conversationId });
    },

    async answer(answer, opts = {}) {
      const answers = Array.isArray(answer) ? answer : [answer];
      const runId = state.runId;
      if (state.status === "streaming" || !runId || answers.length === 0) return;
      const open = state.requests;
      const answered = new Set(answers.map((a) => a.id));
      const token = kept.tokens?.[answers[0]!.id];
      set({ status: "streaming", error: undefined, requests: open.filter((q) => !answered.has(q.id)) });
      if (opts.text) say("user", opts.text);
      keep({});
      const body = {
        runId,
        ...(answers.length === 1 ? { answer: answers[0] } : { answers }),
        ...(token ? { token } : {}),
      };
      await stream(body, (error) => {
        if (GONE.has(error.code)) {
          // answered elsewhere, expired, or not a question of this run: it is not coming back
          set({ requests: [], runId: undefined });
          keep({ runId: undefined, tokens: undefined });
        } else {
          set({ requests: open, runId }); // refused or cut off: the question stays, to be answered again
        }
      });
    },

    async restore() {
      kept = load(storage, key);
      set({ ...IDLE, messages: kept.messages });
      const runId = kept.runId;
      if (!runId) return;
      const controller = new AbortController();
      current = controller;
      set({ status: "streaming" });
      try {
        const url = `${endpoint}${endpoint.includes("?") ? "&" : "?"}runId=${encodeURIComponent(runId)}`;
        const res = await call({ method: "GET", url, headers: { accept: "application/json" } }, controller.signal);
        const body = (await res.json().catch(() => undefined)) as
          | {
              status?: string;
              requests?: PendingRequest[];
              token?: string;
              tokens?: Record<string, string>;
              error?: { code?: string; message?: string };
            }
          | undefined;
        if (!res.ok) {
          const code = typeof body?.error?.code === "string" ? body.error.code : "stream";
          if (code === "run_not_found") {
            keep({ runId: undefined, tokens: undefined });
            return set({ status: "idle" });
          }
          throw new ToolnexusError(code as ToolnexusErrorCode, body?.error?.message ?? `HTTP ${res.status}`);
        }
        const requests = Array.isArray(body?.requests) ? body.requests : [];
        if (!requests.length) {
          keep({ runId: undefined, tokens: undefined });
          return set({ status: "done" });
        }
        const tokens: Record<string, string> = {};
        for (const q of requests) {
          const token = body?.tokens?.[q.id] ?? body?.token;
          if (typeof token === "string") tokens[q.id] = token;
        }
        keep({ tokens });
        set({ status: "waiting", requests, runId });
      } catch (error) {
        if (isAbort(error, controller.signal)) return set({ status: "idle" });
        set({ status: "error", error: described(error) });
      } finally {
        if (current === controller) current = undefined;
      }
    },

    abort() {
      current?.abort();
    },
  };
  return session;
}
