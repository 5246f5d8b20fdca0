// The AI SDK's `useChat` endpoint on the run handler's internals (owner, resume tokens, the exactly-once
// claim, the exchange log, stop):
//   POST { id, messages, trigger, messageId } → the UI message stream (x-vercel-ai-ui-message-stream: v1)
//   GET  ?chatId=…                            → the exchange still streaming after a reload, replayed; 204 when none
// The chat `id` is the conversation, whose stored transcript is the truth: a new exchange takes only the last
// user message. While the chat waits on a run, the re-posted last assistant message answers it — a decision
// (`addToolApprovalResponse`) or an output (`addToolOutput`) counts only where it names an open request of
// the STORED run, on the call that request suspended; anything else is refused and changes nothing.
import { answerApproval, answerDeclined, answerForm, answerOutput, MAX_DECLINE_MESSAGE, relayAnswer } from "../answer";
import { isPlainObject } from "../_internal/json";
import { RunConflictError, ToolnexusError } from "../errors";
import {
  clientToolName,
  UiMessageEncoder,
  uiMessageFrames,
  UI_MESSAGE_STREAM_HEADERS,
} from "../protocol/ui-message-stream";
import type { StoredCall } from "../run-state/record";
import type { Answer, RelayResult } from "../types";
import { replayResponse, type Speaks } from "./exchange";
import {
  encodedFrames,
  latestRun,
  readInteropBody,
  resumeConversation,
  serveInterop,
  startInterop,
  waitingRun,
  type InteropCall,
  type InteropHandlerOptions,
} from "./interop";
import { logOf, type RunHandlerContext } from "./options";
import { aboutConversation, checkOwner, scopedConversation } from "./run-owner";

export type UiMessageStreamHandlerOptions = InteropHandlerOptions;

type Part = Record<string, unknown>;

const MAX_ID = 256;
const MAX_MESSAGES = 1000;

const refuse = (code: "bad_request" | "invalid_answer", message: string): never => {
  throw new ToolnexusError(code, `toolnexus: ${message}`);
};

const chatIdOf = (value: unknown): string =>
  typeof value === "string" && value && value.length <= MAX_ID
    ? value
    : refuse("bad_request", `"id" (the chat) must be a string of 1 to ${MAX_ID} characters`);

const partsOf = (message: unknown): Part[] =>
  isPlainObject(message) && Array.isArray(message.parts) ? message.parts.filter(isPlainObject) : [];

/** The tool a part shows: `tool-<name>` or a dynamic tool's `toolName`. */
function toolNameOf(part: Part): string | undefined {
  if (part.type === "dynamic-tool") return typeof part.toolName === "string" ? part.toolName : undefined;
  return typeof part.type === "string" && part.type.startsWith("tool-") ? part.type.slice(5) : undefined;
}

/** The UI message stream of one exchange; `denied`: the calls whose approval it declined. */
function uiSpeaks(prefix: string, denied?: ReadonlySet<string>): Speaks {
  return {
    headers: UI_MESSAGE_STREAM_HEADERS,
    frames: encodedFrames(() => new UiMessageEncoder(prefix, denied), uiMessageFrames),
  };
}

/** An approval's decision, from the part that carries it, checked against the call the request suspended. */
function decisionOf(id: string, call: StoredCall, part: Part, denied: Set<string>): Answer {
  const approval = part.approval as { approved?: unknown; reason?: unknown };
  if (part.toolCallId !== call.id || toolNameOf(part) !== call.name)
    refuse("invalid_answer", `approval "${id}" is not for the call it names`);
  if (typeof approval.approved !== "boolean")
    refuse("invalid_answer", `approval "${id}" must say approved: true | false`);
  if (approval.approved) return answerApproval(id);
  denied.add(call.id);
  const reason = approval.reason;
  return typeof reason === "string" && reason && reason.length <= MAX_DECLINE_MESSAGE
    ? answerDeclined(id, "declined", reason)
    : answerDeclined(id);
}

/** A client-side tool's output as the answer to its request: a string, a form's fields, a relay's results. */
function outputOf(id: string, kind: string, output: unknown): Answer {
  if (typeof output === "string") return answerOutput(id, output);
  if (kind === "tool_call") {
    const results = isPlainObject(output) ? output.results : output;
    if (Array.isArray(results)) return relayAnswer(id, results as RelayResult[]);
  }
  if (isPlainObject(output)) return answerForm(id, output);
  return refuse("invalid_answer", `the output for "${id}" must be a string or a JSON object`);
}

/**
 * The answers the re-posted last assistant message gives the run's open requests — each read from the part
 * that names the request, on the call the STORED run suspended — and the calls it declined.
 */
function answersOf(runId: string, waiting: StoredCall[], parts: Part[]): { answers: Answer[]; denied: Set<string> } {
  const open = new Map<string, StoredCall>();
  for (const c of waiting) if (!open.has(c.request!.id)) open.set(c.request!.id, c);
  const answers: Answer[] = [];
  const denied = new Set<string>();
  for (const part of parts) {
    if (part.state !== "approval-responded" || !isPlainObject(part.approval)) continue;
    const id = String(part.approval.id);
    const call = open.get(id);
    if (!call || call.request!.kind !== "approval") refuse("invalid_answer", `approval "${id}" names no open approval`);
    answers.push(decisionOf(id, call!, part, denied));
  }
  for (const [id, call] of open) {
    const kind = call.request!.kind;
    if (kind === "approval") continue;
    const part = parts.find((p) => p.toolCallId === id && toolNameOf(p) === clientToolName(kind));
    if (part?.state === "output-available") answers.push(outputOf(id, kind, part.output));
  }
  if (answers.length === 0)
    throw new RunConflictError(runId, "toolnexus: the chat waits on an open question — answer it first", "waiting");
  return { answers, denied };
}

/** A re-post while the chat waits on a run: its answers applied, the run resumed. */
function answer(call: InteropCall, conversationId: string, last: unknown): Promise<Response> {
  return resumeConversation(call, conversationId, async ({ runId, open }) => {
    const { answers, denied } = answersOf(runId, open, partsOf(last));
    // the decision is checked here, against the stored run: the tokens are the server's own, fresh
    const tokenOf = (await call.opts.client.inspect(runId))?.tokens;
    const tokens = tokenOf ? answers.map((a) => tokenOf[a.id] ?? "") : undefined;
    return { answers, tokens, speaks: uiSpeaks(runId, denied) };
  });
}

/** The text of a user message's parts. */
function promptOf(last: unknown): string {
  const isUser = isPlainObject(last) && last.role === "user";
  const text = partsOf(last)
    .flatMap((p) => (p.type === "text" && typeof p.text === "string" ? [p.text] : []))
    .join("\n");
  return isUser && text.trim() ? text : refuse("bad_request", "the last message must be the user's, with text");
}

async function post(call: InteropCall): Promise<Response> {
  const body = await readInteropBody(call);
  const chatId = chatIdOf(body.id);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES)
    refuse("bad_request", `"messages" must be a list of 1 to ${MAX_MESSAGES}`);
  const last = (messages as unknown[]).at(-1);
  const conversationId = (await scopedConversation(chatId, call.owner))!;
  const { storage } = call;
  const waiting = await waitingRun(storage, conversationId);
  if (waiting !== undefined && !(isPlainObject(last) && last.role === "user"))
    return answer(call, conversationId, last);
  return startInterop(call, conversationId, promptOf(last), (runId) => uiSpeaks(runId), aboutConversation);
}

/** The chat's exchange still streaming, replayed from its start and followed to its end; 204 when none. */
async function get(call: InteropCall): Promise<Response> {
  const chatId = chatIdOf(new URL(call.request.url).searchParams.get("chatId"));
  const conversationId = (await scopedConversation(chatId, call.owner))!;
  const runId = await latestRun(call.storage, conversationId);
  const log = runId === undefined ? undefined : logOf(call, runId);
  const found = log && (await checkOwner(call, log).catch(() => undefined));
  if (!log || !found?.head.running) return new Response(null, { status: 204 });
  const { exchange } = found.head;
  return replayResponse(
    log.runId,
    call.request.signal,
    (signal) => log.follow(exchange, 0, signal),
    uiSpeaks(`${runId}-${exchange}`),
  );
}

/**
 * A `(request, context?) => Promise<Response>` serving the AI SDK's `useChat` with `client` and `toolkit`:
 * POST what `useChat` sends, the UI message stream back; GET `?chatId=` for `useChat({ resume: true })`.
 * A body it cannot use (bad JSON, over `maxBodyBytes`, nested too deep, fields missing, an answer that names
 * no open request) is a 4xx `{ error: { code, message } }`, and nothing changes.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createUiMessageStreamHandler(
  opts: UiMessageStreamHandlerOptions,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  const refusal = "toolnexus: the chat endpoint takes POST and GET ?chatId=";
  return serveInterop("createUiMessageStreamHandler", opts, post, get, refusal);
}
