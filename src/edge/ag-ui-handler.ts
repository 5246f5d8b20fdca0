// An AG-UI 1.0 endpoint (CopilotKit, assistant-ui, any `HttpAgent`) on the run handler's internals: the
// owner, resume tokens, the exactly-once claim, the exchange log, stop.
//   POST RunAgentInput → text/event-stream of AG-UI events: RUN_STARTED … one RUN_FINISHED or RUN_ERROR
// `threadId` is the conversation: its stored transcript is the truth, and the input's `messages` give only
// the new user message. A halt ends the run with an `interrupt` outcome, one Interrupt per open request;
// `resume[]` answers them under AG-UI's rules — every open interrupt addressed, none expired, each checked
// against the STORED suspension — else RUN_ERROR, and nothing is consumed.
import { isPlainObject } from "../_internal/json";
import type { Client } from "../client";
import { isDue } from "../client/clock";
import { type ConflictReason, RunConflictError, ToolnexusError } from "../errors";
import {
  AgUiEncoder,
  agUiFrame,
  answerOfEntry,
  PayloadError,
  type AgUiEvent,
  type AgUiMessage,
  type AgUiToolCall,
  type ResumeEntry,
} from "../protocol/ag-ui";
import type { Answer, PendingRequest } from "../types";
import { errorPayload, type ErrorPayload } from "./error-body";
import type { Speaks } from "./exchange";
import {
  encodedFrames,
  readInteropBody,
  resumeConversation,
  serveInterop,
  startInterop,
  type ConversationRun,
  type InteropCall,
  type InteropHandlerOptions,
} from "./interop";
import type { RunHandlerContext } from "./options";
import { aboutConversation, scopedConversation } from "./run-owner";

export type AgUiHandlerOptions = InteropHandlerOptions;

const MAX_ID = 256;
const MAX_RESUME = 64;

type Body = Record<string, unknown>;

/** What a RunAgentInput must hold, read without trusting it. */
interface Input {
  threadId: string;
  runId: string;
  state: unknown;
  prompt: string | undefined;
  resume: ResumeEntry[] | undefined;
  /** The page's own messages, as a halt's MESSAGES_SNAPSHOT gives them back: user and assistant text, calls. */
  history: AgUiMessage[];
}

const bad = (message: string): never => {
  throw new ToolnexusError("bad_request", `toolnexus: ${message}`);
};

const idOf = (value: unknown, key: string): string =>
  typeof value === "string" && value && value.length <= MAX_ID
    ? value
    : bad(`RunAgentInput "${key}" must be a string of 1 to ${MAX_ID} characters`);

/** The text of a user message's content: a string, or its text parts joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter((p) => isPlainObject(p) && p.type === "text" && typeof p.text === "string");
  return parts.map((p) => (p as { text: string }).text).join("\n") || undefined;
}

/** An assistant's tool calls as the page sent them: id, name and arguments text only. */
function callsOf(value: unknown): AgUiToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((c) => {
    const fn = isPlainObject(c) && isPlainObject(c.function) ? c.function : undefined;
    if (!fn || typeof c.id !== "string" || typeof fn.name !== "string") return [];
    const args = typeof fn.arguments === "string" ? fn.arguments : "{}";
    return [{ id: c.id, type: "function" as const, function: { name: fn.name, arguments: args } }];
  });
}

/**
 * The page's user and assistant messages, for the snapshot a halt sends back: never a system, developer or
 * tool message. Only shown to the page that sent them: the model sees the stored transcript.
 */
function historyOf(messages: unknown[]): AgUiMessage[] {
  return messages.flatMap((m): AgUiMessage[] => {
    if (!isPlainObject(m) || typeof m.id !== "string" || m.id.length > MAX_ID) return [];
    const content = textOf(m.content);
    if (m.role === "user") return content === undefined ? [] : [{ id: m.id, role: "user", content }];
    if (m.role !== "assistant") return [];
    const toolCalls = callsOf(m.toolCalls);
    const message: AgUiMessage = { id: m.id, role: "assistant" };
    if (content !== undefined) message.content = content;
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    return [message];
  });
}

function entryOf(value: unknown): ResumeEntry {
  if (!isPlainObject(value)) return bad("each resume entry must be an object");
  const { interruptId, status, payload, metadata } = value;
  if (status !== "resolved" && status !== "cancelled")
    bad('a resume entry\'s "status" must be "resolved" or "cancelled"');
  if (metadata !== undefined && !isPlainObject(metadata)) bad('a resume entry\'s "metadata" must be an object');
  return {
    interruptId: idOf(interruptId, "interruptId"),
    status: status as ResumeEntry["status"],
    payload,
    metadata: metadata as ResumeEntry["metadata"],
  };
}

function inputOf(body: Body): Input {
  const { messages, resume } = body;
  if (!Array.isArray(messages)) bad('RunAgentInput "messages" must be a list');
  const last = (messages as unknown[]).at(-1);
  const user = isPlainObject(last) && last.role === "user" ? textOf(last.content) : undefined;
  if (resume !== undefined && (!Array.isArray(resume) || resume.length > MAX_RESUME))
    bad(`RunAgentInput "resume" must be a list of at most ${MAX_RESUME}`);
  return {
    threadId: idOf(body.threadId, "threadId"),
    runId: idOf(body.runId, "runId"),
    state: body.state,
    prompt: user?.trim() ? user : undefined,
    resume: (resume as unknown[] | undefined)?.map(entryOf),
    history: historyOf(messages as unknown[]),
  };
}

/** The AG-UI speaking of one run: its events as frames, and a refusal as RUN_STARTED then RUN_ERROR. */
function agUiSpeaks(input: Input): Speaks {
  const events = (list: AgUiEvent[]) => list.map(agUiFrame).join("");
  return {
    headers: {},
    frames: encodedFrames(() => new AgUiEncoder(input.threadId, input.runId, input.state, input.history), events),
    refused: (payload) => refusedRun(input, payload),
  };
}

/** A run refused before it began: RUN_STARTED and RUN_ERROR (AG-UI's way to say it), HTTP 200. */
function refusedRun(input: Pick<Input, "threadId" | "runId">, { code, message }: ErrorPayload): Response {
  const { threadId, runId } = input;
  const body = [
    { type: "RUN_STARTED", threadId, runId },
    { type: "RUN_ERROR", message, code },
  ]
    .map(agUiFrame)
    .join("");
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" },
  });
}

const conflict = (runId: string, reason: ConflictReason, message: string) =>
  new RunConflictError(runId, `toolnexus: ${message}`, reason);

/**
 * The answers a resume gives, checked against the stored suspension: every open request addressed, each
 * entry naming one, none expired by `client`'s clock. On a run no longer waiting, the requests it had (an
 * identical replay gets the kept outcome). Throws what the run is refused with.
 */
function answersOf(
  client: Client,
  runId: string,
  requests: PendingRequest[],
  open: boolean,
  resume: ResumeEntry[],
): Answer[] {
  const byId = new Map(requests.map((r) => [r.id, r]));
  const named = new Set(resume.map((e) => e.interruptId));
  if (named.size !== resume.length) throw conflict(runId, "waiting", "a resume names an interrupt twice");
  if (open && requests.some((r) => !named.has(r.id)))
    throw conflict(runId, "waiting", "a resume must address every open interrupt (partial resumes are not supported)");
  return resume.map((entry) => {
    const request = byId.get(entry.interruptId);
    if (!request) throw conflict(runId, "answered", `interrupt "${entry.interruptId}" is not open on this thread`);
    if (open && isDue(client, request) && entry.status === "resolved")
      throw conflict(
        runId,
        "waiting",
        `interrupt "${entry.interruptId}" expired at ${request.expiresAt}; cancel it to go on`,
      );
    try {
      return answerOfEntry(request, entry);
    } catch (error) {
      if (error instanceof PayloadError) throw new ToolnexusError("invalid_answer", `toolnexus: ${error.message}`);
      throw error;
    }
  });
}

/** The thread's run answered with `input.resume`: its open interrupts, or (moved on) the ones it had. */
function resumeThread(call: InteropCall, input: Input, conversationId: string): Promise<Response> {
  const resume = input.resume!;
  return resumeConversation(call, conversationId, ({ runId, calls, open, waiting }: ConversationRun) => {
    const requests = [...new Map(calls.flatMap((c) => (c.request ? [[c.request.id, c.request]] : []))).values()];
    const openIds = new Set(open.map((c) => c.request!.id));
    const asked = waiting ? requests.filter((r) => openIds.has(r.id)) : requests;
    const answers = answersOf(call.opts.client, runId, asked, waiting, resume);
    const tokens = resume.map((e) => e.metadata?.token);
    const signed = tokens.every((t) => typeof t === "string") ? (tokens as string[]) : undefined;
    return { answers, tokens: signed, speaks: agUiSpeaks(input) };
  });
}

function startThread(call: InteropCall, input: Input, conversationId: string): Promise<Response> {
  const prompt = input.prompt ?? bad("send a user message last in RunAgentInput.messages (or a resume)");
  const refusal = (error: unknown) => {
    const payload = aboutConversation(error);
    return payload.reason === "waiting"
      ? { ...payload, message: "toolnexus: the thread has open interrupts — resume them first" }
      : payload;
  };
  return startInterop(call, conversationId, prompt, () => agUiSpeaks(input), refusal);
}

async function post(call: InteropCall): Promise<Response> {
  const input = inputOf(await readInteropBody(call));
  const conversationId = (await scopedConversation(input.threadId, call.owner))!;
  try {
    if (input.resume && input.resume.length > 0) return await resumeThread(call, input, conversationId);
    return await startThread(call, input, conversationId);
  } catch (error) {
    // a run refused by the protocol's rules is told in the protocol: RUN_STARTED, RUN_ERROR
    const payload = errorPayload(error);
    if (payload.code === "bad_request") throw error;
    return refusedRun(input, payload);
  }
}

/**
 * A `(request, context?) => Promise<Response>` serving AG-UI 1.0 clients (`HttpAgent`, CopilotKit,
 * assistant-ui) with `client` and `toolkit`: POST a RunAgentInput, AG-UI events back. A body it cannot use
 * (bad JSON, over `maxBodyBytes`, nested too deep, fields missing) is a 4xx `{ error: { code, message } }`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createAgUiHandler(
  opts: AgUiHandlerOptions,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  return serveInterop(
    "createAgUiHandler",
    opts,
    post,
    undefined,
    "toolnexus: the AG-UI endpoint takes POST RunAgentInput",
  );
}
