// The bodies a page POSTs to the run endpoint, and their one checker. The page builds them with these
// types; the endpoint reads what arrived with `checkRunRequest`, which refuses anything else with a
// `bad_request` (or `invalid_answer` for an answer parseAnswer refuses) before anything runs:
//   start    { prompt, conversationId?, stopped? }
//   resume   { runId, answer | answers, token? | tokens? }   (a token per answer)
//   stop     { runId, stop: true }
//   restore  { runId, restore: true, after?, token? }
import { parseAnswer } from "../answer-parse";
import { isPlainObject } from "../_internal/json";
import { ToolnexusError } from "../errors";
import type { Answer } from "../types";
import { type EventId, parseEventId } from "./event-id";

/** Starts a run: the conversation's next exchange when `conversationId` is sent. */
export interface StartBody {
  prompt: string;
  conversationId?: string;
  /** The page has just stopped this conversation's exchange: a busy conversation is waited out a while. */
  stopped?: boolean;
}

/** Answers a halted run's open requests (no answers: a run whose answers were applied goes on). */
export type ResumeBody = { runId: string } & (
  | { answer: Answer; token?: string }
  | { answers: Answer[]; tokens?: string[] }
);

/** Stops the run's exchange that is streaming now. */
export interface StopBody {
  runId: string;
  stop: true;
}

/** What a reloaded page shows again: the exchange it was showing (`after`, an event id) or the run as it stands. */
export interface RestoreBody {
  runId: string;
  restore: true;
  after?: string;
  token?: string;
}

export type RunRequestBody = StartBody | ResumeBody | StopBody | RestoreBody;

/** A request body as the endpoint uses it, once checked. */
export type RunRequest =
  | { kind: "start"; prompt: string; conversationId: string | undefined; stopped: boolean }
  | { kind: "resume"; runId: string; answers: Answer[]; tokens: string[] | undefined }
  | { kind: "stop"; runId: string }
  | { kind: "restore"; runId: string; after: EventId | undefined; token: string | undefined };

export const MAX_ID = 256;
export const MAX_ANSWERS = 64;
export const MAX_TOKEN = 8192;

/** A request the endpoint cannot use: its message is told to the page as it is. */
export function badRequest(message: string): never {
  throw new ToolnexusError("bad_request", `toolnexus: ${message}`);
}

/** A run or conversation id: a string of 1 to MAX_ID characters. */
export function checkId(value: unknown, key: string): string {
  if (typeof value !== "string" || !value || value.length > MAX_ID)
    badRequest(`"${key}" must be a string of 1 to ${MAX_ID} characters`);
  return value as string;
}

/** An event id a replay starts after (`after`, or an EventSource's Last-Event-ID). */
export function checkEventId(value: unknown): EventId {
  return parseEventId(value) ?? badRequest('"after" (or Last-Event-ID) must be an event id "<exchange>:<n>"');
}

function checkToken(token: unknown): string {
  if (typeof token === "string" && token && token.length <= MAX_TOKEN) return token;
  return badRequest("a token must be the string the request was issued with");
}

/** `body[one]` as a list of one, or the list `body[many]`, each checked with `item`; undefined when neither is sent. */
function listOf<T>(
  body: Record<string, unknown>,
  one: string,
  many: string,
  item: (value: unknown) => T,
): T[] | undefined {
  const single = body[one];
  const list = body[many];
  if (single !== undefined && list !== undefined) badRequest(`send "${one}" or "${many}", not both`);
  if (single !== undefined) return [item(single)];
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length > MAX_ANSWERS)
    badRequest(`"${many}" must be a list of at most ${MAX_ANSWERS}`);
  return (list as unknown[]).map(item);
}

function checkAboutRun(body: Record<string, unknown>, runId: string): RunRequest {
  if (body.stop === true) return { kind: "stop", runId };
  if (body.restore === true) {
    const token = body.token === undefined ? undefined : checkToken(body.token);
    const after = body.after === undefined ? undefined : checkEventId(body.after);
    return { kind: "restore", runId, after, token };
  }
  // an empty list continues a run whose answers were applied before it stopped (inspect says "ready")
  const answers = listOf(body, "answer", "answers", parseAnswer) ?? badRequest('a resume needs "answer" or "answers"');
  const tokens = listOf(body, "token", "tokens", checkToken); // one per answer, checked by the client
  return { kind: "resume", runId, answers, tokens };
}

/** The request a parsed JSON body asks for, checked field by field; a body that is none is a `bad_request`. */
export function checkRunRequest(body: unknown): RunRequest {
  if (!isPlainObject(body)) return badRequest("the request body must be a JSON object");
  if (body.runId !== undefined) return checkAboutRun(body, checkId(body.runId, "runId"));
  const prompt = body.prompt;
  if (typeof prompt !== "string" || !prompt.trim())
    badRequest('send { "prompt" } to start a run, or { "runId", "answer" } to answer one');
  const id = body.conversationId;
  const conversationId = id === undefined ? undefined : checkId(id, "conversationId");
  return { kind: "start", prompt: prompt as string, conversationId, stopped: body.stopped === true };
}
