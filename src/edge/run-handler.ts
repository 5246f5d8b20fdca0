// The edge endpoint of a chat widget in one line, for any fetch-style server (a Worker's fetch,
// Deno.serve, Bun.serve, Node through a Request/Response adapter):
//   POST { prompt, conversationId? }            → the new run's events (text/event-stream)
//   POST { runId, answer | answers, token? | tokens? } → the resumed run's events (a token per answer)
//   POST { runId, stop: true }                  → 202: the running exchange stops at its next boundary
//   GET  ?runId=…                               → { status, requests, token? } — what a reloaded page asks
//   GET  ?runId=…&after=<e>:<n> (or Last-Event-ID) → exchange e's events after the n-th, followed to its end
// With `owner`, a run another owner started is answered exactly as a run that does not exist.
// A request it cannot use (bad JSON, wrong content type, a body over maxBodyBytes, bad fields) is refused
// with a 4xx `{ error: { code, message } }` before the client is called: nothing is stored, nothing runs.
import { parseAnswer } from "../answer";
import { ConfigError, isToolnexusError, shown, StorageError, ToolnexusError, type ToolnexusErrorCode } from "../errors";
import { isPlainObject } from "../_internal/json";
import type { Client } from "../client";
import { pendingTtls } from "../client/pending-ttl";
import type { Answer, ResumeOptions, RunOptions, StreamEvent, ToolkitLike } from "../types";
import { errorPayload, errorResponse } from "./error-body";
import { pageSafeEvent } from "./event-stream";
import { replayResponse, serveExchange, type ExchangePlan } from "./exchange";
import { follow, stopKey } from "./exchange-log";
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

/** A handler's settings and what it shares across its requests. */
interface Env {
  opts: RunHandlerOptions;
  max: number;
  ttl: { ttlSeconds?: number };
  running: Map<string, AbortController>;
}

const DEFAULT_MAX_BODY = 64 * 1024;
const DEFAULT_TTL = 604_800;
const MAX_ID = 256;
const MAX_ANSWERS = 64;
const MAX_TOKEN = 8192;

/** A request the endpoint cannot use: a ToolnexusError, whose code and message the page is told as they are. */
const refuse = (code: ToolnexusErrorCode, message: string): never => {
  throw new ToolnexusError(code, `toolnexus: ${message}`);
};

/** The body as text, refused once it passes `max` bytes (whatever Content-Length claims). */
async function readText(request: Request, max: number): Promise<string> {
  const tooLarge = () => refuse("payload_too_large", `the request body is larger than ${max} bytes`);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse("bad_request", "the request body is not UTF-8 text");
  }
}

async function readJsonObject(request: Request, max: number): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json")
    refuse("unsupported_media_type", "send the body as JSON with content-type: application/json");
  let body: unknown;
  try {
    body = JSON.parse(await readText(request, max));
  } catch (error) {
    if (isToolnexusError(error)) throw error;
    refuse("bad_request", "the request body is not valid JSON");
  }
  if (!isPlainObject(body)) refuse("bad_request", "the request body must be a JSON object");
  return body as Record<string, unknown>;
}

function idField(body: Record<string, unknown>, key: string, optional: boolean): string | undefined {
  const value = body[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== "string" || value === "" || value.length > MAX_ID)
    refuse("bad_request", `"${key}" must be a non-empty string of at most ${MAX_ID} characters`);
  return value as string;
}

/** The answers of a resume body, each checked with parseAnswer (an InvalidAnswerError names the field). */
function answersOf(body: Record<string, unknown>): Answer[] {
  if (body.answer !== undefined && body.answers !== undefined)
    refuse("bad_request", 'send "answer" or "answers", not both');
  if (body.answer !== undefined) return [parseAnswer(body.answer)];
  const list = body.answers;
  // an empty list continues a run whose answers were applied before it stopped (inspect says "ready")
  if (!Array.isArray(list) || list.length > MAX_ANSWERS)
    refuse("bad_request", `a resume needs "answer", or "answers" as a list of at most ${MAX_ANSWERS} answers`);
  return (list as unknown[]).map(parseAnswer);
}

/** What a page may see of an event: reasoning only when the handler forwards it, a done result without its transcript. */
const visible =
  (opts: RunHandlerOptions) =>
  (event: StreamEvent): StreamEvent | undefined =>
    event.type === "reasoning" && opts.reasoning !== true ? undefined : pageSafeEvent(event);

interface Call {
  request: Request;
  caller: string | null;
  waitUntil: ((promise: Promise<unknown>) => void) | undefined;
}

function plan(env: Env, call: Call, runId: string, rest: Pick<ExchangePlan, "before" | "events" | "refusal">) {
  const waitUntil = call.waitUntil;
  return serveExchange({
    storage: env.opts.client.storage,
    runId,
    owner: call.caller,
    ttl: env.ttl,
    visible: visible(env.opts),
    request: call.request,
    running: env.running,
    ...(waitUntil ? { waitUntil } : {}),
    ...rest,
  });
}

const isToken = (t: unknown): t is string => typeof t === "string" && t !== "" && t.length <= MAX_TOKEN;

/** `token` (for the one request answered) or `tokens` (one per answer, in the answers' order), checked by the client. */
function tokensOf(body: Record<string, unknown>): Pick<ResumeOptions, "token" | "tokens"> {
  const { token, tokens } = body;
  if (token !== undefined && tokens !== undefined) refuse("bad_request", 'send "token" or "tokens", not both');
  if (token !== undefined && !isToken(token))
    refuse("bad_request", '"token" must be the token string the request was issued with');
  if (tokens !== undefined && !(Array.isArray(tokens) && tokens.length <= MAX_ANSWERS && tokens.every(isToken)))
    refuse("bad_request", `"tokens" must be a list of at most ${MAX_ANSWERS} token strings, one per answer`);
  return token !== undefined ? { token: token as string } : tokens !== undefined ? { tokens: tokens as string[] } : {};
}

async function resume(env: Env, call: Call, body: Record<string, unknown>, runId: string): Promise<Response> {
  const { client, toolkit } = env.opts;
  const answers = answersOf(body);
  const tokens = tokensOf(body);
  const before = await checkOwner(client.storage, env.opts.owner, runId, call.caller);
  return plan(env, call, runId, {
    before,
    events: (signal) => {
      const resumeOpts: ResumeOptions = {
        signal,
        ...(toolkit ? { toolkit } : {}),
        ...tokens,
        ...(call.caller === null ? {} : { owner: call.caller }), // remembered approvals are the owner's
      };
      return client.resumeStream(runId, answers.length === 1 ? answers[0]! : answers, resumeOpts);
    },
    refusal: (error) => aboutRun(runId, errorPayload(error)),
  });
}

/** Asks the run's running exchange to stop: at once in this isolate, through the storage in any other. */
async function stop(env: Env, call: Call, runId: string): Promise<Response> {
  const storage = env.opts.client.storage;
  const found = await checkOwner(storage, env.opts.owner, runId, call.caller);
  if (!found) throw notFound(runId);
  const { exchange, running } = found.head;
  if (!running) refuse("run_conflict", `run "${runId}" has no exchange streaming — there is nothing to stop`);
  try {
    // workerd refuses to abort a controller another request made (the stored stop below still reaches it)
    env.running.get(runId)?.abort();
  } catch {}
  try {
    await storage.set(stopKey(runId, exchange), "1", env.ttl);
  } catch (cause) {
    throw new StorageError("set", stopKey(runId, exchange), cause);
  }
  return Response.json({ status: "stopping" }, { status: 202, headers: { "cache-control": "no-store" } });
}

async function post(env: Env, call: Call): Promise<Response> {
  const body = await readJsonObject(call.request, env.max);
  const { client, toolkit } = env.opts;
  if (body.runId !== undefined) {
    const runId = idField(body, "runId", false)!;
    if (body.stop === true) return stop(env, call, runId);
    return resume(env, call, body, runId);
  }
  const prompt = body.prompt;
  if (typeof prompt !== "string" || !prompt.trim())
    refuse("bad_request", 'send { "prompt": "…" } to start a run, or { "runId", "answer" } to answer one');
  // the conversation's next exchange: its history in, its outcome saved (client/conversations.ts)
  const conversationId = await scopedConversation(idField(body, "conversationId", true), call.caller);
  const runId = `run-${crypto.randomUUID()}`;
  return plan(env, call, runId, {
    before: undefined,
    events: (signal) => {
      const runOpts: RunOptions = {
        signal,
        runId,
        ...(toolkit ? { toolkit } : {}),
        ...(conversationId ? { conversationId } : {}),
        ...(call.caller === null ? {} : { owner: call.caller }),
      };
      return client.stream(prompt as string, runOpts);
    },
    refusal: (error) => aboutConversation(errorPayload(error)),
  });
}

/** `<exchange>:<n>`, as sent in each event's id; anything else is a bad request. */
function eventId(text: string): { exchange: number; after: number } {
  const match = /^([1-9]\d{0,8}):(0|[1-9]\d{0,8})$/.exec(text);
  if (!match) return refuse("bad_request", '"after" (or Last-Event-ID) must be an event id "<exchange>:<n>"');
  return { exchange: Number(match[1]), after: Number(match[2]) };
}

async function get(env: Env, call: Call): Promise<Response> {
  const url = new URL(call.request.url);
  const runId = url.searchParams.get("runId");
  if (!runId || runId.length > MAX_ID) return refuse("bad_request", "GET needs ?runId= of the run to look at");
  const storage = env.opts.client.storage;
  const found = await checkOwner(storage, env.opts.owner, runId, call.caller);
  // an EventSource that reconnects sends the last id it got, newer than the `after` in its URL
  const from = call.request.headers.get("last-event-id") ?? url.searchParams.get("after");
  if (from !== null) {
    const { exchange, after } = eventId(from);
    if (!found || exchange > found.head.exchange) throw notFound(runId);
    // a reader that goes away (its request's signal, or the body cancelled) ends the polling at once
    const reading = new AbortController();
    const gone = () => reading.abort();
    call.request.signal.addEventListener("abort", gone, { once: true });
    return replayResponse(runId, follow(storage, runId, exchange, after, reading.signal), gone);
  }
  const inspection = await env.opts.client.inspect(runId);
  if (!inspection) throw notFound(runId);
  const { status, requests, token, tokens } = inspection;
  const streaming = found?.head.running ? { streaming: `${found.head.exchange}:0` } : {};
  const body = { status, requests, ...(token ? { token } : {}), ...(tokens ? { tokens } : {}), ...streaming };
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}

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
  if (typeof client?.stream !== "function" || typeof client.resumeStream !== "function" || !client.storage)
    throw new ConfigError(
      "client",
      `toolnexus: createRunHandler needs { client } — a client made by createClient, got ${shown(client)}`,
    );
  const max = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  if (!Number.isInteger(max) || max <= 0)
    throw new ConfigError(
      "maxBodyBytes",
      `toolnexus: createRunHandler maxBodyBytes must be a whole number > 0, got ${shown(max)}`,
    );
  const ttlSeconds = opts.ttlSeconds ?? Math.ceil(pendingTtls.get(client) ?? DEFAULT_TTL);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0)
    throw new ConfigError(
      "ttlSeconds",
      `toolnexus: createRunHandler ttlSeconds must be a whole number ≥ 0, got ${shown(ttlSeconds)}`,
    );
  if (opts.owner !== undefined && typeof opts.owner !== "function")
    throw new ConfigError(
      "owner",
      `toolnexus: createRunHandler owner must be a function (request) => string | null, got ${shown(opts.owner)}`,
    );
  const env: Env = { opts, max, ttl: ttlSeconds ? { ttlSeconds } : {}, running: new Map() };
  return async (request, context) => {
    try {
      const waitUntil = context?.waitUntil?.bind(context);
      const call: Call = { request, caller: await ownerOf(opts.owner, request), waitUntil };
      if (request.method === "POST") return await post(env, call);
      if (request.method === "GET") return await get(env, call);
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
