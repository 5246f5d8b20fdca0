// The edge endpoint of a chat widget in one line, for any fetch-style server (a Worker's fetch,
// Deno.serve, Bun.serve, Node through a Request/Response adapter):
//   POST { prompt, conversationId? }            → the new run's events (text/event-stream)
//   POST { runId, answer | answers, token? | tokens? } → the resumed run's events (a token per answer)
//   POST { runId, stop: true }                  → 202: the running exchange stops at its next boundary
//   POST { runId, restore: true, after?, token? } → what a reloaded page shows again (events, see `restore`)
//   GET  ?runId=…                               → { status, requests, token? } — what a reloaded page asks
//   GET  ?runId=…&after=<e>:<n> (or Last-Event-ID) → exchange e's events after the n-th, followed to its end
// With `owner`, a run another owner started is answered exactly as a run that does not exist.
// A request it cannot use (bad JSON, wrong content type, a body over maxBodyBytes, bad fields) is refused
// with a 4xx `{ error: { code, message } }` before the client is called: nothing is stored, nothing runs.
import { ConfigError, RunConflictError, shown, stored, ToolnexusError, type ToolnexusErrorCode } from "../errors";
import type { Client } from "../client";
import { pendingTtls } from "../client/pending-ttl";
import { isDue } from "../client/clock";
import { type InspectedRun, inspectionResult } from "../client/inspection-result";
import { formatEventId } from "../protocol/event-id";
import { LAST_EVENT_ID_HEADER } from "../protocol/headers";
import { badRequest, checkEventId, checkId, checkRunRequest, type RunRequest } from "../protocol/requests";
import type { Answer, ToolkitLike } from "../types";
import { abortableSleep } from "../_internal/sleep";
import { errorPayload, errorResponse } from "./error-body";
import { pageSafeEvent } from "./event-stream";
import { replayResponse, serveExchange, type ExchangePlan } from "./exchange";
import { follow, readHead, stopKey, type Head, type Logged } from "./exchange-log";
import { aboutConversation, aboutRun, checkOwner, notFound, ownerOf, scopedConversation } from "./run-owner";

export interface RunHandlerOptions {
  /** A client made by createClient or createInProcessClient (its `resumeSecret` checks and issues tokens). */
  client: Client;
  /** The tools every run and resume gets. */
  toolkit?: ToolkitLike;
  /** The largest request body read, in bytes, counted while reading. Default 65536 (64 KiB). */
  maxBodyBytes?: number;
  /**
   * Who is asking (e.g. the user id from the host's session cookie or JWT); `null` for an anonymous caller.
   * A new run is stamped with it, and a run stamped with another owner is answered exactly as an unknown run
   * (404). Conversations are kept per owner. Without it, a run's id is all it takes to act on the run.
   */
  owner?: (request: Request) => string | null | Promise<string | null>;
  /**
   * How long a run's event log and owner stamp are kept after its latest exchange, in seconds; 0 = no expiry.
   * Default: the client's `pendingTtlSeconds` (rounded up to whole seconds), so they live as long as its halted
   * runs — 604800 (7 days) for a client that did not set it, or that createClient did not make.
   */
  ttlSeconds?: number;
  /** Forward `reasoning` events to the page (and keep them in the log). Default false. */
  reasoning?: boolean;
}

/** What a Worker's fetch handler gets as its third argument: `waitUntil` keeps an exchange going after its page left. */
export interface RunHandlerContext {
  waitUntil?(promise: Promise<unknown>): void;
}

/** One request: the handler's settings and what its exchanges share, then who asks (`owner`) and how. */
interface Call
  extends Pick<ExchangePlan, "storage" | "ttl" | "visible" | "running" | "request" | "owner" | "waitUntil"> {
  opts: RunHandlerOptions;
  max: number;
}

type StartRequest = Extract<RunRequest, { kind: "start" }>;
type RestoreRequest = Extract<RunRequest, { kind: "restore" }>;

/** A request the endpoint cannot use: a ToolnexusError, whose code and message the page is told as they are. */
const refuse = (code: ToolnexusErrorCode, message: string): never => {
  throw new ToolnexusError(code, `toolnexus: ${message}`);
};

/** The body's bytes, refused once they pass `max` (whatever Content-Length claims). */
async function readBody(request: Request, max: number): Promise<ArrayBuffer> {
  const tooLarge = () => refuse("payload_too_large", `the request body is over ${max} bytes`);
  if (Number(request.headers.get("content-length")) > max) tooLarge();
  const chunks: Uint8Array[] = [];
  const reader = request.body?.getReader();
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((size += value.byteLength) > max) {
      await reader.cancel().catch(() => {});
      tooLarge();
    }
    chunks.push(value);
  }
  return new Blob(chunks as BufferSource[]).arrayBuffer();
}

async function readJson(request: Request, max: number): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? ""))
    refuse("unsupported_media_type", "send the body as JSON with content-type: application/json");
  const bytes = await readBody(request, max);
  try {
    // ignoreBOM: false is the default, spelled out because the Workers types require it
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return badRequest("the request body is not JSON in UTF-8");
  }
}

const json = (body: unknown, status?: number) =>
  Response.json(body, { status, headers: { "cache-control": "no-store" } });

/** Asks the run's running exchange to stop: at once in this isolate, through the storage in any other. */
async function stop(call: Call, runId: string): Promise<Response> {
  const found = await checkOwner(call, runId);
  if (!found) throw notFound(runId);
  const { exchange, running } = found.head;
  if (!running)
    throw new RunConflictError(runId, `toolnexus: run "${runId}" has no exchange streaming to stop`, "finished");
  try {
    // workerd refuses to abort a controller another request made (the stored stop below still reaches it)
    call.running.get(runId)?.abort();
  } catch {}
  const key = stopKey(runId, exchange);
  await stored("set", key, () => call.storage.set(key, "1", call.ttl));
  return json({ status: "stopping" }, 202);
}

/** Exchange `exchange`'s events after the `after`-th, followed to its end. */
const replay = (call: Call, runId: string, exchange: number, after: number) =>
  replayResponse(runId, call.request.signal, (signal) => follow(call.storage, runId, exchange, after, signal));

/** A resume's exchange: `answers` (none: a run whose answers were applied goes on), each with its token. */
function resumed(
  call: Call,
  runId: string,
  before: { head: Head; raw: string } | undefined,
  answers: Answer[],
  tokens: string[] | undefined,
): Promise<Response> {
  const { client, toolkit } = call.opts;
  const owner = call.owner ?? undefined;
  return serveExchange({
    ...call,
    runId,
    before,
    events: (signal) =>
      client.resumeStream(runId, answers.length === 1 ? answers[0]! : answers, { signal, toolkit, tokens, owner }),
    refusal: (error) => aboutRun(runId, error),
  });
}

/** How often, and how many times, a restore looks again at a run another resume is running. */
const RUNNING_POLL_MS = 1_000;
const RUNNING_POLLS = 60;

/**
 * What a reloaded page shows again, as events: the exchange it was showing (`after`, the first event id it
 * wants), replayed and followed to its end; else the run as it stands — its exchange streaming now, from its
 * start; its open requests as `pending` events (each with a fresh token) and a `done` saying it waits; a run
 * whose answers were applied, continued (with `token`, any token of the run); a finished run, a `done`. A run
 * another resume is running is looked at again until it is one of those.
 */
async function restore(call: Call, { runId, after, token }: RestoreRequest): Promise<Response> {
  let found = await checkOwner(call, runId);
  if (after && found && after.exchange <= found.head.exchange) return replay(call, runId, after.exchange, after.n);
  const anyToken = token === undefined ? undefined : [token];
  for (let polls = 0; ; polls++) {
    if (found?.head.running) return replay(call, runId, found.head.exchange, 0);
    const inspection = await call.opts.client.inspect(runId);
    if (!inspection) throw notFound(runId);
    const { status, requests, tokens } = inspection;
    // answers applied, or a deadline passed (semantics 8): the run goes on, into its event log
    if (status === "ready" || (status === "pending" && requests.some((r) => isDue(call.opts.client, r))))
      return resumed(call, runId, found, [], anyToken);
    if (status !== "running")
      return replayResponse(runId, call.request.signal, () => standing(runId, { status, requests, tokens }));
    if (polls === RUNNING_POLLS)
      throw new RunConflictError(runId, "toolnexus: the run is being resumed elsewhere; reload later", "claimed");
    await abortableSleep(RUNNING_POLL_MS, call.request.signal);
    found = await readHead(call.storage, runId);
  }
}

/**
 * A halted (or finished) run as events with no ids (they are no exchange's): each open request, with its
 * token, then a `done` with no transcript (the client's result of the inspected run).
 */
async function* standing(runId: string, inspected: InspectedRun): AsyncGenerator<Logged> {
  const { requests, tokens } = inspected;
  for (const request of requests) yield { event: { type: "pending", request, runId, token: tokens?.[request.id] } };
  yield { event: pageSafeEvent({ type: "done", result: inspectionResult(runId, inspected) }) };
}

async function post(call: Call): Promise<Response> {
  const request = checkRunRequest(await readJson(call.request, call.max));
  if (request.kind === "start") return start(call, request);
  if (request.kind === "stop") return stop(call, request.runId);
  if (request.kind === "restore") return restore(call, request);
  const { runId, answers, tokens } = request;
  return resumed(call, runId, await checkOwner(call, runId), answers, tokens);
}

/** A new run: the conversation's next exchange when it names one (its history in, its outcome saved). */
async function start(call: Call, { prompt, conversationId: id, stopped }: StartRequest): Promise<Response> {
  const { client, toolkit } = call.opts;
  const owner = call.owner ?? undefined; // remembered approvals are the owner's
  const conversationId = await scopedConversation(id, call.owner);
  // `stopped`: the page has just stopped the conversation's exchange, which may hold it a moment longer (a tool
  // or a model call slow to notice): a busy refusal is waited out for a while, not answered at once
  const until = stopped ? Date.now() + STOPPING_WAIT_MS : 0;
  for (;;) {
    const runId = `run-${crypto.randomUUID()}`;
    let busy = false;
    const res = await serveExchange({
      ...call,
      runId,
      before: undefined,
      events: (signal) => client.stream(prompt, { signal, runId, toolkit, conversationId, owner }),
      refusal: (error) => {
        const payload = aboutConversation(error);
        busy = payload.reason === "busy";
        return payload;
      },
    });
    if (!busy || Date.now() >= until) return res;
    await abortableSleep(STOPPING_POLL_MS, call.request.signal);
  }
}

/** How long a prompt sent right after its page stopped the conversation's exchange waits for it to let go. */
const STOPPING_WAIT_MS = 10_000;
const STOPPING_POLL_MS = 250;

async function get(call: Call): Promise<Response> {
  const { request } = call;
  const url = new URL(request.url);
  const runId = checkId(url.searchParams.get("runId"), "runId");
  const found = await checkOwner(call, runId);
  // an EventSource that reconnects sends the last id it got, newer than the `after` in its URL
  const from = request.headers.get(LAST_EVENT_ID_HEADER) ?? url.searchParams.get("after");
  if (from !== null) {
    const { exchange, n } = checkEventId(from);
    if (!found || exchange > found.head.exchange) throw notFound(runId);
    return replay(call, runId, exchange, n);
  }
  // a run whose deadline passed is continued first, so a reloaded page finds it moved on
  const inspection = await call.opts.client.inspect(runId, { toolkit: call.opts.toolkit });
  if (!inspection) throw notFound(runId);
  const { status, requests, token, tokens } = inspection;
  const streaming = found?.head.running ? formatEventId(found.head.exchange, 0) : undefined;
  return json({ status, requests, token, tokens, streaming });
}

const mustBe = (field: string, ok: boolean, what: string, value: unknown) => {
  if (!ok) throw new ConfigError(field, `toolnexus: createRunHandler ${field} must be ${what}, got ${shown(value)}`);
};

/**
 * A `(request, context?) => Promise<Response>` serving a chat widget's runs with `client` and `toolkit`.
 * Answers are checked with parseAnswer and resume tokens by the client (its `resumeSecret`); events go out
 * page-safe, each with its id, and are kept in the client's storage so a page can replay and follow them.
 * On Workers, pass the fetch handler's context (`handler(request, ctx)`): its `waitUntil` keeps an exchange
 * going after its page went away.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createRunHandler(
  opts: RunHandlerOptions,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  const client = opts?.client as Partial<Client> | undefined;
  const ok = typeof client?.stream === "function" && typeof client.resumeStream === "function";
  mustBe("client", ok && !!client.storage, "a client made by createClient", client);
  const max = opts.maxBodyBytes ?? 65_536;
  mustBe("maxBodyBytes", Number.isInteger(max) && max > 0, "a whole number > 0", max);
  const ttlSeconds = opts.ttlSeconds ?? Math.ceil(pendingTtls.get(client!) ?? 604_800);
  mustBe("ttlSeconds", Number.isInteger(ttlSeconds) && ttlSeconds >= 0, "a whole number ≥ 0", ttlSeconds);
  const owner = opts.owner;
  mustBe("owner", owner === undefined || typeof owner === "function", "a function (request) => string | null", owner);
  const shared = {
    opts,
    max,
    storage: client!.storage!,
    ttl: ttlSeconds ? { ttlSeconds } : {},
    running: new Map(),
    // what a page may see of an event: reasoning only when forwarded, a done result without its transcript
    visible: (event) => (event.type === "reasoning" && opts.reasoning !== true ? undefined : pageSafeEvent(event)),
  } satisfies Omit<Call, "request" | "owner">;
  return async (request, context) => {
    try {
      const call: Call = {
        ...shared,
        request,
        owner: await ownerOf(owner, request),
        waitUntil: context?.waitUntil?.bind(context),
      };
      if (request.method === "POST") return await post(call);
      if (request.method === "GET") return await get(call);
      return errorResponse(
        { code: "method_not_allowed", message: "toolnexus: the run endpoint takes GET ?runId= and POST" },
        { allow: "GET, POST" },
      );
    } catch (error) {
      // an unexpected error is not described (nor logged: its text is not ours to vouch for)
      return errorResponse(errorPayload(error));
    }
  };
}
