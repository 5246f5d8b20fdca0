// What a reloaded page finds again: the exchange that was streaming (replayed from its first event and
// followed to its end, each event once), or the open Requests of the kept run, asked from the endpoint.
import type { PendingRequest } from "../types";
import { abortableSleep } from "../wire/retry-wait";
import { responseError } from "./event-stream";
import { call, type Core, described, endpointWith, forget, IDLE, isAbort, keep, set } from "./session-core";
import { load } from "./session-store";
import { play } from "./session-stream";

interface InspectBody {
  status?: string;
  /** Set while an exchange of the run streams: its first event's id, `<exchange>:0`. */
  streaming?: string;
  requests?: PendingRequest[];
  token?: string;
  tokens?: Record<string, string>;
}

/** How often, and how many times, a reloaded page looks again at a run another resume is still running. */
const RUNNING_POLL_MS = 1_000;
const RUNNING_POLLS = 60;

/** The endpoint's view of run `runId` (GET ?runId=), looked at again while another resume runs it. */
async function inspectKept(core: Core, runId: string, signal: AbortSignal): Promise<InspectBody | undefined> {
  const url = endpointWith(core, { runId });
  for (let polls = 0; ; polls++) {
    const res = await call(core, url, { method: "GET", headers: { accept: "application/json" } }, signal);
    if (!res.ok) {
      const error = await responseError(res);
      if (error.code === "run_not_found") return undefined;
      throw error;
    }
    const body = (await res.json().catch(() => undefined)) as InspectBody | undefined;
    if (body?.status !== "running" || body.streaming || polls >= RUNNING_POLLS) return body;
    await abortableSleep(RUNNING_POLL_MS, signal);
  }
}

/** Replays the exchange `stream` names; resolves false when the endpoint no longer has it. */
async function replay(core: Core, stream: { runId: string; exchange: number }): Promise<boolean> {
  set(core, { status: "streaming" });
  let gone = false;
  await play(core, { replay: stream }, (error) => (gone = error?.code === "run_not_found"));
  if (gone) set(core, { status: "idle" }); // expired, or never the endpoint's: what was kept stays shown
  return !gone;
}

export async function restore(core: Core): Promise<void> {
  core.kept = load(core.storage, core.key);
  set(core, { ...IDLE, messages: core.kept.messages });
  // a reload while an exchange streamed: it goes on from its first event, the messages it made replayed
  if (core.kept.stream && (await replay(core, core.kept.stream))) return;
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
    await play(core, { body: { runId, answers: [], ...(token ? { token } : {}) } });
    return;
  }
  const exchange = Number(body.streaming?.split(":")[0]);
  if (
    body.status === "running" &&
    Number.isInteger(exchange) &&
    exchange > 0 &&
    (await replay(core, { runId, exchange }))
  )
    return;
  if (body.status === "running") {
    const message = "toolnexus: the run is being resumed elsewhere; reload later";
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
