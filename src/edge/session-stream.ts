// How a run session plays one exchange onto its state: the events of a POST (a prompt, an answer) or of a
// replay (a reload re-attaching to an exchange still streaming), each event once. While an exchange streams,
// its run and exchange are kept in Web Storage, so a reload replays it from its first event.
import { isToolnexusError, NetworkError, type ToolnexusError } from "../errors";
import { parseEventId } from "../protocol/event-id";
import { RUN_ID_HEADER } from "../protocol/headers";
import type { PendingRequest, RunResult, StreamEvent } from "../types";
import { readEvents } from "./event-stream";
import {
  call,
  type Core,
  described,
  flush,
  forget,
  isAbort,
  keep,
  type RunSessionCall,
  say,
  set,
} from "./session-core";

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
  // stopped by this page's stop(): what had streamed stays, and that is all
  if (result.limit === "aborted" && core.live?.stopping) {
    flush(core);
    return set(core, { status: "idle", requests: [], runId: undefined });
  }
  const message = `toolnexus: the run stopped early (${result.limit ?? "incomplete"})`;
  set(core, { status: "error", error: { code: "incomplete", message }, requests: [], runId: undefined });
}

/** The current exchange's calls after `event`: a call being written, then running, then done. */
function callsAfter(calls: readonly RunSessionCall[], event: StreamEvent): readonly RunSessionCall[] {
  if (event.type !== "tool_input" && event.type !== "tool_call" && event.type !== "tool_result") return calls;
  const at = calls.findIndex((c) => c.id === event.id);
  const was = calls[at];
  let next: RunSessionCall;
  if (event.type === "tool_input")
    next = { id: event.id, name: event.name, input: (was?.input ?? "") + event.delta, status: "preparing" };
  else if (event.type === "tool_call")
    next = { id: event.id, name: event.name, input: was?.input || JSON.stringify(event.args ?? {}), status: "running" };
  else next = { id: event.id, name: event.name, input: was?.input ?? "", status: "done", isError: event.isError };
  return at === -1 ? [...calls, next] : calls.map((c, i) => (i === at ? next : c));
}

function onEvent(core: Core, event: StreamEvent): void {
  if (event.type === "text") return set(core, { text: core.state.text + event.delta });
  flush(core);
  const calls = callsAfter(core.state.calls, event);
  if (calls !== core.state.calls) set(core, { calls });
  if (event.type !== "pending") return;
  const { requests } = core.state;
  const token = (event as { token?: unknown }).token;
  if (typeof token === "string") keep(core, { tokens: { ...core.kept.tokens, [event.request.id]: token } });
  set(core, {
    requests: requests.some((q) => q.id === event.request.id) ? requests : [...requests, event.request],
    runId: event.runId ?? core.state.runId,
  });
}

/** The POST that starts an exchange (a prompt, an answer) or re-attaches to one (a restore). */
function open(core: Core, body: unknown, signal?: AbortSignal): Promise<Response> {
  const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  return call(core, core.endpoint, init, signal);
}

/** Marks the exchange streaming in Web Storage at its first event, so a reload re-attaches to it. */
function attach(core: Core, res: Response, id: string | undefined): void {
  const runId = res.headers.get(RUN_ID_HEADER);
  const exchange = parseEventId(id)?.exchange;
  if (!runId || exchange === undefined) return;
  core.live ??= { runId, stopping: false };
  keep(core, { stream: { runId, exchange, base: core.state.messages.length } });
}

/**
 * Plays an exchange's events onto the state; `onStopped` sees why a stream ended early before that is shown
 * — a ToolnexusError, or nothing for an abort. It returns true for an error it deals with itself: the error is
 * not shown.
 */
export async function play(
  core: Core,
  body: unknown,
  onStopped?: (error?: ToolnexusError) => boolean | void,
): Promise<void> {
  const controller = new AbortController();
  core.current = controller;
  let streamed = false;
  let started = false;
  let cut = false; // the connection dropped: the exchange may go on, and a restore() re-attaches to it
  try {
    const res = await open(core, body, controller.signal);
    await readEvents(res, (event, id) => {
      if (!started) attach(core, res, id);
      started = true;
      if (event.type === "text") streamed = true;
      if (event.type === "done") finish(core, event.result, streamed);
      else onEvent(core, event);
    });
  } catch (error) {
    flush(core);
    if (isAbort(error, controller.signal)) {
      onStopped?.();
      return set(core, { status: core.state.requests.length ? "waiting" : "idle" });
    }
    cut = started && error instanceof NetworkError; // not an error event the server sent
    if (!(isToolnexusError(error) && onStopped?.(error) === true))
      set(core, { status: "error", error: described(error) });
  } finally {
    if (core.current === controller) core.current = undefined;
    core.live = undefined;
    keep(core, cut ? {} : { stream: undefined });
  }
}

/** Asks the endpoint to stop the exchange streaming now (from any tab); resolves once it was asked. */
export async function requestStop(core: Core): Promise<void> {
  const live = core.live;
  if (!live) return;
  live.stopping = true;
  await open(core, { runId: live.runId, stop: true }).then(
    (res) => res.body?.cancel(),
    () => {}, // unreachable: the exchange ends at its own end, or at its deadline
  );
}
