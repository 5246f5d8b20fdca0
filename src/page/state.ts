// A run session's state and the small moves every part of it makes: one snapshot (a new object on every
// change, the same one otherwise — React's useSyncExternalStore contract), what is kept in Web Storage, and
// the page's own POST to the endpoint.
import {
  type ConflictReason,
  isToolnexusError,
  NetworkError,
  type RunConflictError,
  type ToolnexusError,
} from "../errors";
import { JSON_CONTENT_TYPE } from "../protocol/headers";
import type { RunRequestBody } from "../protocol/requests";
import type { PendingRequest } from "../types";
import { type Kept, type RunSessionMessage, type SessionStorageLike, save } from "./kept";

export type RunSessionStatus = "idle" | "streaming" | "waiting" | "done" | "error";

/** Where a tool call of the current exchange is: written by the model, running, waiting on the user, done. */
export type RunSessionCallStatus = "preparing" | "running" | "waiting" | "done";

/** A tool call of the current exchange: its arguments as the model writes them, then run, then done. */
export interface RunSessionCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text, growing while the model writes them. */
  readonly input: string;
  /** `waiting` while the call waits on an open question or approval of the user's. */
  readonly status: RunSessionCallStatus;
  /** Once done: whether the tool's result was an error. */
  readonly isError?: boolean;
}

/** A failure the session shows: the error's code, and for a conflict which one it is (branch on `reason`). */
export interface RunSessionError {
  readonly code: string;
  readonly reason?: ConflictReason;
  readonly message: string;
}

export interface RunSessionState {
  readonly status: RunSessionStatus;
  /** The conversation as the page shows it: prompts, answers given as text, and finished assistant text. */
  readonly messages: readonly RunSessionMessage[];
  /** The assistant text streaming in right now (moved to `messages` when the turn ends). */
  readonly text: string;
  /** The open Requests of the halted run; answer them in any order. */
  readonly requests: readonly PendingRequest[];
  readonly error: RunSessionError | undefined;
  /** The halted run the open requests belong to. */
  readonly runId: string | undefined;
  /** The tool calls of the current exchange, in the order the model made them. */
  readonly calls: readonly RunSessionCall[];
}

export const IDLE: RunSessionState = {
  status: "idle",
  messages: [],
  text: "",
  requests: [],
  error: undefined,
  runId: undefined,
  calls: [],
};

/** One session's moving parts; the functions of the session each do one thing to it. */
export interface Core {
  state: RunSessionState;
  kept: Kept;
  current: AbortController | undefined;
  /** The exchange streaming now, once its response named its run. */
  live: { runId: string } | undefined;
  /** The page stopped its last prompt's exchange (`abort()`): the next prompt asks the endpoint to wait it out. */
  stopped?: true | undefined;
  readonly listeners: Set<(state: RunSessionState) => void>;
  /** The deadline timer (deadline.ts), told the open requests to watch after every change. */
  readonly watchDeadline: (requests: readonly PendingRequest[] | undefined) => void;
  readonly endpoint: string;
  readonly fetch: typeof fetch | undefined;
  readonly storage: SessionStorageLike | undefined;
  readonly key: string;
}

/** Applies `patch` to the state as a new snapshot and tells every listener. */
export function update(core: Core, patch: Partial<RunSessionState>): void {
  core.state = { ...core.state, ...patch };
  for (const listener of [...core.listeners]) listener(core.state);
  followDeadline(core);
}

/** The deadline timer watches the open requests while someone listens and no exchange streams. */
export function followDeadline(core: Core): void {
  const { status, requests } = core.state;
  core.watchDeadline(core.listeners.size > 0 && status !== "streaming" ? requests : undefined);
}

/** Saves the visible messages and `patch` (an `undefined` runId, tokens or stream is not saved: JSON leaves it out). */
export function persist(core: Core, patch: Partial<Kept>): void {
  const kept: Kept = { ...core.kept, ...patch, messages: [...core.state.messages] };
  // while an exchange streams, the messages it added are not kept: a reload replays the exchange whole
  if (kept.stream) kept.messages = kept.messages.slice(0, kept.stream.base);
  core.kept = kept;
  save(core.storage, core.key, kept);
}

/** The kept run is over (or left behind): nothing of it is kept to answer or to replay. */
export function forgetRun(core: Core): void {
  persist(core, { runId: undefined, tokens: undefined, stream: undefined });
}

export function appendMessage(core: Core, message: RunSessionMessage): void {
  update(core, { messages: [...core.state.messages, message] });
}

/** The streamed text so far becomes an assistant message. */
export function settleText(core: Core): void {
  if (core.state.text) {
    update(core, { messages: [...core.state.messages, { role: "assistant", text: core.state.text }], text: "" });
  }
}

/** A failure as the page sees it: a ToolnexusError's code (and a conflict's reason), else a fixed message. */
export function describeError(error: unknown): RunSessionError {
  if (!isToolnexusError(error)) return { code: "internal", message: "toolnexus: the run session failed; try again" };
  const { code, message, reason } = error as ToolnexusError & Partial<RunConflictError>;
  return { code, reason, message };
}

export function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error as { name?: unknown } | null)?.name === "AbortError";
}

/** POSTs `body` as JSON to the endpoint: a rejection that is not an abort is a NetworkError. */
export async function postToEndpoint(core: Core, body: RunRequestBody, signal?: AbortSignal): Promise<Response> {
  const f = core.fetch ?? globalThis.fetch;
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": JSON_CONTENT_TYPE },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  };
  try {
    return await f(core.endpoint, init);
  } catch (error) {
    if (signal && isAbort(error, signal)) throw error;
    throw new NetworkError("toolnexus: could not reach the run endpoint; try again", { cause: error });
  }
}
