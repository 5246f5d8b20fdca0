// The page side of a chat widget, headless and framework-neutral: one state snapshot (a new object on
// every change, the same one otherwise — React's useSyncExternalStore contract; `subscribe` calls the
// listener at once, as a Svelte store does), built from the run's events, never from the transcript.
// It talks to an endpoint made by createRunHandler and keeps the open run in Web Storage for reloads.
import { answerDeclined } from "../answer";
import { ConfigError, shown } from "../errors";
import type { ResumeBody, StartBody } from "../protocol/requests";
import type { Answer } from "../types";
import { deadlineTimer, type RunSessionClock, SYSTEM_CLOCK } from "./deadline";
import { defaultStorage, load, type SessionStorageLike } from "./kept";
import { restore } from "./restore";
import {
  appendMessage,
  type Core,
  followDeadline,
  forgetRun,
  IDLE,
  persist,
  type RunSessionState,
  update,
} from "./state";
import { playExchange, requestStop } from "./stream";

export type { RunSessionClock } from "./deadline";
export type { RunSessionMessage, SessionStorageLike } from "./kept";
export type {
  RunSessionCall,
  RunSessionCallStatus,
  RunSessionError,
  RunSessionState,
  RunSessionStatus,
} from "./state";

export interface RunSessionOptions {
  /** The URL of a createRunHandler endpoint, e.g. `"/api/run"`. */
  endpoint: string | URL;
  /** Default: the global fetch, looked up per call. */
  fetch?: typeof fetch;
  /** Where the open run is kept across reloads: a Web Storage. Default `sessionStorage`; `null` for none. */
  storage?: SessionStorageLike | null;
  /** The storage key. Default `"toolnexus:run-session"`. */
  key?: string;
  /**
   * What the session tells the time by: at the earliest `expiresAt` of the open requests it restores the run
   * once, so the run that went on by itself shows. Default: `Date.now()` and the global timers.
   */
  clock?: RunSessionClock;
}

export interface AnswerOptions {
  /** Shown as the user's message, e.g. the chosen option or "Approved". */
  text?: string;
}

export interface RunSession {
  readonly state: RunSessionState;
  /**
   * Calls `listener` with the state now and after every change; returns the unsubscribe. While the session
   * has a listener it restores the run once when an open request's deadline passes; once the last one
   * unsubscribes it sets no timer.
   */
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
  /**
   * Stops the exchange streaming now, from this tab or any other showing the same run: it ends at its next
   * boundary (a model chunk, a tool's end), what it streamed stays, and the session is idle. Resolves once
   * the endpoint was asked; the stream's own end follows.
   */
  stop(): Promise<void>;
  /** Stops reading the current stream at once (the exchange is asked to stop too); the text so far stays. */
  abort(): void;
}

/** Errors after which the answered question is not open any more. */
const GONE = new Set(["run_conflict", "run_not_found", "answer_mismatch"]);

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
  update(core, { status: "streaming", error: undefined, text: "", requests: [], runId: undefined, calls: [] });
  appendMessage(core, { role: "user", text });
  forgetRun(core);
  // the exchange this page just stopped may hold the conversation a moment longer (a tool or a model call slow
  // to notice): `stopped` asks the endpoint to wait that out instead of refusing the prompt as busy
  const body: StartBody = { prompt: text, conversationId: core.kept.conversationId, stopped: core.stopped };
  core.stopped = undefined;
  await playExchange(core, body, (error) => {
    if (!error) core.stopped = true; // the page stopped this prompt's exchange
    return undefined;
  });
}

/** The resume request: one answer (and its token) or several (and theirs). */
function resumeBody(runId: string, answers: Answer[], tokens: string[] | undefined): ResumeBody {
  const [only] = answers;
  if (answers.length === 1 && only) return { runId, answer: only, ...(tokens ? { token: tokens[0] } : {}) };
  return { runId, answers, ...(tokens ? { tokens } : {}) };
}

async function answer(core: Core, given: Answer | Answer[], opts: AnswerOptions, retried?: true): Promise<void> {
  const answers = Array.isArray(given) ? given : [given];
  const { runId, requests: open } = core.state;
  if (core.state.status === "streaming" || !runId || answers.length === 0) return;
  const answered = new Set(answers.map((a) => a.id));
  // each answer's own token, in the answers' order; none when the page was given none for one of them
  const own = answers.map((a) => core.kept.tokens?.[a.id]);
  const tokens = own.every((t) => typeof t === "string") ? (own as string[]) : undefined;
  update(core, { status: "streaming", error: undefined, requests: open.filter((q) => !answered.has(q.id)), calls: [] });
  if (opts.text) appendMessage(core, { role: "user", text: opts.text });
  persist(core, { stream: undefined }); // an exchange cut off earlier is not the one to replay any more
  let stale = false;
  await playExchange(core, resumeBody(runId, answers, tokens), (error) => {
    // a token kept past its life (a page left open): fresh ones are fetched below, and the answer sent once more
    if (error?.code === "resume_token" && !retried) {
      stale = true;
      return true;
    }
    if (error && GONE.has(error.code)) {
      // answered elsewhere, expired, or not a question of this run: it is not coming back
      update(core, { requests: [], runId: undefined });
      forgetRun(core);
    } else {
      update(core, { requests: open, runId }); // refused, cut off or aborted: the question stays, to be answered again
    }
    return undefined;
  });
  if (!stale) return;
  update(core, { requests: open });
  await playExchange(core, { runId, restore: true }); // the run as it stands: its open requests, each with a fresh token
  if (core.state.status === "waiting" && core.state.runId === runId) await answer(core, answers, {}, true);
}

/* @__NO_SIDE_EFFECTS__ */
export function createRunSession(options: RunSessionOptions): RunSession {
  if (typeof options?.endpoint !== "string" && !(options?.endpoint instanceof URL))
    throw new ConfigError(
      "endpoint",
      `toolnexus: createRunSession needs { endpoint }: a createRunHandler's URL, got ${shown(options?.endpoint)}`,
    );
  const storage = options.storage === null ? undefined : (options.storage ?? defaultStorage());
  const key = options.key ?? "toolnexus:run-session";
  const kept = load(storage, key);
  const core: Core = {
    state: { ...IDLE, messages: kept.messages },
    kept,
    current: undefined,
    live: undefined,
    listeners: new Set(),
    watchDeadline: deadlineTimer(options.clock ?? SYSTEM_CLOCK, () => void restore(core)),
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
      followDeadline(core);
      return () => {
        core.listeners.delete(listener);
        followDeadline(core);
      };
    },
    send: (prompt) => send(core, prompt),
    answer: (a, opts = {}) => answer(core, a, opts),
    restore: () => restore(core),
    stop: () => requestStop(core),
    abort: () => {
      void requestStop(core);
      core.current?.abort();
    },
  };
}
