// The edge endpoint of a chat widget in one line, for any fetch-style server (a Worker's fetch,
// Deno.serve, Bun.serve, Node through a Request/Response adapter):
//   POST { prompt, conversationId? }            → the new run's events (text/event-stream)
//   POST { runId, answer | answers, token? | tokens? } → the resumed run's events (a token per answer)
//   GET  ?runId=…                               → { status, requests, token? } — what a reloaded page asks
// A request it cannot use (bad JSON, wrong content type, a body over maxBodyBytes, bad fields) is refused
// with a 4xx `{ error: { code, message } }` before the client is called: nothing is stored, nothing runs.
import { parseAnswer } from "../answer";
import { ConfigError, isToolnexusError, shown, ToolnexusError, type ToolnexusErrorCode } from "../errors";
import { isPlainObject } from "../_internal/json";
import type { Client } from "../client";
import type { Answer, ResumeOptions, RunOptions, ToolkitLike } from "../types";
import { errorPayload, errorResponse } from "./error-body";
import { eventStreamResponse } from "./event-stream";

export interface RunHandlerOptions {
  /** A client made by createClient or createInProcessClient (its `resumeSecret` checks and issues tokens). */
  client: Client;
  /** The tools every run and resume gets. */
  toolkit?: ToolkitLike;
  /** The largest request body read, in bytes, counted while reading. Default 65536 (64 KiB). */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 64 * 1024;
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

async function post(request: Request, opts: RunHandlerOptions, max: number): Promise<Response> {
  const body = await readJsonObject(request, max);
  const { client } = opts;
  const toolkit = opts.toolkit;
  if (body.runId !== undefined) {
    const runId = idField(body, "runId", false)!;
    const answers = answersOf(body);
    // the page's request signal: a page that goes away stops the run, whose claim is given back at once
    const resumeOpts: ResumeOptions = { signal: request.signal, ...(toolkit ? { toolkit } : {}), ...tokensOf(body) };
    return eventStreamResponse(client.resumeStream(runId, answers.length === 1 ? answers[0]! : answers, resumeOpts));
  }
  const prompt = body.prompt;
  if (typeof prompt !== "string" || !prompt.trim())
    refuse("bad_request", 'send { "prompt": "…" } to start a run, or { "runId", "answer" } to answer one');
  // the conversation's next exchange: its history in, its outcome saved (client/conversations.ts)
  const conversationId = idField(body, "conversationId", true);
  const runOpts: RunOptions = {
    signal: request.signal,
    ...(toolkit ? { toolkit } : {}),
    ...(conversationId ? { conversationId } : {}),
  };
  return eventStreamResponse(client.stream(prompt as string, runOpts));
}

async function inspect(url: URL, opts: RunHandlerOptions): Promise<Response> {
  const runId = url.searchParams.get("runId");
  if (!runId || runId.length > MAX_ID) refuse("bad_request", "GET needs ?runId= of the run to look at");
  const found = await opts.client.inspect(runId!);
  if (!found) refuse("run_not_found", `no run "${runId}" — it finished long ago, expired, or never existed`);
  const { status, requests, token, tokens } = found!;
  const body = { status, requests, ...(token ? { token } : {}), ...(tokens ? { tokens } : {}) };
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}

/**
 * A `(request: Request) => Promise<Response>` serving a chat widget's runs with `client` and `toolkit`.
 * Answers are checked with parseAnswer and resume tokens by the client (its `resumeSecret`); events go out
 * page-safe through {@link eventStreamResponse}.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createRunHandler(opts: RunHandlerOptions): (request: Request) => Promise<Response> {
  const client = opts?.client as Partial<Client> | undefined;
  if (typeof client?.stream !== "function" || typeof client.resumeStream !== "function")
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
  return async (request) => {
    try {
      if (request.method === "POST") return await post(request, opts, max);
      if (request.method === "GET") return await inspect(new URL(request.url), opts);
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
