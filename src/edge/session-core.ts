// A run session's state and the small moves every part of it makes: one snapshot (a new object on every
// change, the same one otherwise — React's useSyncExternalStore contract), what is kept in Web Storage, and
// the page's own fetch of the endpoint.
import { isToolnexusError, NetworkError } from "../errors";
import type { PendingRequest } from "../types";
import { save, type Kept, type RunSessionMessage, type SessionStorageLike } from "./session-store";

export type RunSessionStatus = "idle" | "streaming" | "waiting" | "done" | "error";

/** A tool call of the current exchange: its arguments as the model writes them, then run, then done. */
export interface RunSessionCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text, growing while the model writes them. */
  readonly input: string;
  readonly status: "preparing" | "running" | "done";
  /** Once done: whether the tool's result was an error. */
  readonly isError?: boolean;
}

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
  live: { runId: string; stopping: boolean } | undefined;
  /** The page stopped its last prompt's exchange (`abort()`): the next prompt asks the endpoint to wait it out. */
  stopped?: true | undefined;
  readonly listeners: Set<(state: RunSessionState) => void>;
  readonly endpoint: string;
  readonly fetch: typeof fetch | undefined;
  readonly storage: SessionStorageLike | undefined;
  readonly key: string;
}

export function set(core: Core, patch: Partial<RunSessionState>): void {
  core.state = { ...core.state, ...patch };
  for (const listener of [...core.listeners]) listener(core.state);
}

const REMOVABLE = ["runId", "tokens", "stream"] as const;

/** Saves the visible messages and `patch` (an `undefined` runId, tokens or stream removes them). */
export function keep(core: Core, patch: Partial<Kept>): void {
  const kept: Kept = { ...core.kept, ...patch, messages: [...core.state.messages] };
  for (const k of REMOVABLE) if (k in patch && patch[k] === undefined) delete kept[k];
  // while an exchange streams, the messages it added are not kept: a reload replays the exchange whole
  if (kept.stream) kept.messages = kept.messages.slice(0, kept.stream.base);
  core.kept = kept;
  save(core.storage, core.key, kept);
}

/** The kept run is over (or left behind): nothing of it is kept to answer or to replay. */
export const forget = (core: Core): void => keep(core, { runId: undefined, tokens: undefined, stream: undefined });

export function say(core: Core, role: RunSessionMessage["role"], text: string): void {
  set(core, { messages: [...core.state.messages, { role, text }] });
}

/** The streamed text so far becomes a message. */
export function flush(core: Core): void {
  if (core.state.text) {
    set(core, { messages: [...core.state.messages, { role: "assistant", text: core.state.text }], text: "" });
  }
}

/** A failure as the page sees it: a ToolnexusError with a code, or a NetworkError for a failed fetch. */
export function described(error: unknown): { code: string; message: string } {
  if (isToolnexusError(error)) return { code: error.code, message: error.message };
  return { code: "internal", message: "toolnexus: the run session failed; try again" };
}

export const isAbort = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted || (error as { name?: unknown } | null)?.name === "AbortError";

/** The page's own fetch: a rejection that is not an abort is a NetworkError. */
export async function call(core: Core, url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  const f = core.fetch ?? globalThis.fetch;
  try {
    return await f(url, signal ? { ...init, signal } : init);
  } catch (error) {
    if (signal && isAbort(error, signal)) throw error;
    throw new NetworkError("toolnexus: could not reach the run endpoint; try again", { cause: error });
  }
}
