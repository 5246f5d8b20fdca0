// How a run session plays one exchange onto its state: the events of a POST (a prompt, an answer) or of a
// replay (a reload re-attaching to an exchange still streaming), each event once. While an exchange streams,
// its run and exchange are kept in Web Storage, so a reload replays it from its first event.
import { isToolnexusError, NetworkError, type ToolnexusError } from "../errors";
import { parseEventId } from "../protocol/event-id";
import { RUN_ID_HEADER } from "../protocol/headers";
import type { RunRequestBody, StopBody } from "../protocol/requests";
import type { PendingResult, RunResult, StreamEvent } from "../types";
import { readEvents, responseBody } from "./read-events";
import {
  appendMessage,
  type Core,
  describeError,
  forgetRun,
  isAbort,
  persist,
  postToEndpoint,
  type RunSessionCall,
  settleText,
  update,
} from "./state";

/**
 * A stopped exchange ends like any other: what it streamed stays, its last message marked `stopped`, and the
 * session is idle — in the tab that stopped it and in every other tab showing it. `base` is the message count
 * before the exchange: an exchange that said nothing has nothing to mark.
 */
function markStopped(core: Core, base: number): void {
  settleText(core);
  const messages = [...core.state.messages];
  const last = messages.at(-1);
  if (messages.length > base && last?.role === "assistant") messages[messages.length - 1] = { ...last, stopped: true };
  update(core, { messages, status: "idle", requests: [], runId: undefined });
}

function halted(core: Core, result: PendingResult): void {
  const tokens = { ...core.kept.tokens };
  if (result.token && result.pending) tokens[result.pending.id] ??= result.token; // the token is the first request's
  update(core, { status: "waiting", requests: result.requests ?? [], runId: result.runId });
  persist(core, { runId: result.runId, tokens });
}

function finish(core: Core, result: RunResult, streamed: boolean, base: number): void {
  // a replayed outcome arrives without text events. Only a done result's text is its own (a pending one's is
  // its prompt); an incomplete one's is what had streamed, maybe in the request that halted before it, shown then
  if (!streamed && result.status === "done" && result.text)
    appendMessage(core, { role: "assistant", text: result.text });
  if (result.status === "pending") return halted(core, result);
  forgetRun(core);
  if (result.status === "done") return update(core, { status: "done", requests: [], runId: undefined });
  if (result.limit === "aborted") return markStopped(core, base);
  const message = `toolnexus: the run stopped early (${result.limit ?? "incomplete"})`;
  update(core, { status: "error", error: { code: "incomplete", message }, requests: [], runId: undefined });
}

/**
 * The current exchange's calls after `event`: a call being written, then running, then done. At a `pending`
 * event the calls still running are the ones waiting on the user (the others have their results).
 */
function callsAfter(calls: readonly RunSessionCall[], event: StreamEvent): readonly RunSessionCall[] {
  if (event.type === "pending") return calls.map((c) => (c.status === "running" ? { ...c, status: "waiting" } : c));
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
  if (event.type === "text") return update(core, { text: core.state.text + event.delta });
  settleText(core);
  const calls = callsAfter(core.state.calls, event);
  if (calls !== core.state.calls) update(core, { calls });
  if (event.type !== "pending") return;
  const { requests } = core.state;
  if (typeof event.token === "string")
    persist(core, { tokens: { ...core.kept.tokens, [event.request.id]: event.token } });
  update(core, {
    requests: requests.some((q) => q.id === event.request.id) ? requests : [...requests, event.request],
    runId: event.runId ?? core.state.runId,
  });
}

/** Marks the exchange streaming in Web Storage at its first event, so a reload re-attaches to it. */
function attach(core: Core, res: Response, id: string | undefined): void {
  const runId = res.headers.get(RUN_ID_HEADER);
  const exchange = parseEventId(id)?.exchange;
  if (!runId || exchange === undefined) return;
  core.live ??= { runId };
  persist(core, { stream: { runId, exchange, base: core.state.messages.length } });
}

/**
 * Plays an exchange's events onto the state; `onStopped` sees why a stream ended early before that is shown
 * — a ToolnexusError, or nothing for an abort. It returns true for an error it deals with itself: the error is
 * not shown.
 */
export async function playExchange(
  core: Core,
  body: RunRequestBody,
  onStopped?: (error?: ToolnexusError) => boolean | undefined,
): Promise<void> {
  const controller = new AbortController();
  core.current = controller;
  const base = core.state.messages.length;
  let streamed = false;
  let started = false;
  let cut = false; // the connection dropped: the exchange may go on, and a restore() re-attaches to it
  try {
    const res = await postToEndpoint(core, body, controller.signal);
    for await (const { event, id } of readEvents(await responseBody(res))) {
      if (!started) attach(core, res, id);
      started = true;
      if (event.type === "text") streamed = true;
      if (event.type === "done") finish(core, event.result, streamed, base);
      else onEvent(core, event);
    }
  } catch (error) {
    settleText(core);
    if (isAbort(error, controller.signal)) {
      onStopped?.();
      if (core.state.requests.length) return update(core, { status: "waiting" });
      return markStopped(core, base);
    }
    cut = started && error instanceof NetworkError; // not an error event the server sent
    if (!(isToolnexusError(error) && onStopped?.(error) === true))
      update(core, { status: "error", error: describeError(error) });
  } finally {
    if (core.current === controller) core.current = undefined;
    core.live = undefined;
    persist(core, cut ? {} : { stream: undefined });
  }
}

/**
 * Asks the endpoint to stop the exchange streaming now (from any tab); resolves once it was asked. Before the
 * exchange's first event there is no run to name yet: the page stops reading instead, as abort() does.
 */
export async function requestStop(core: Core): Promise<void> {
  const live = core.live;
  if (!live) return core.current?.abort();
  const body: StopBody = { runId: live.runId, stop: true };
  await postToEndpoint(core, body).then(
    (res) => res.body?.cancel(),
    () => {}, // unreachable: the exchange ends at its own end, or at its deadline
  );
}
