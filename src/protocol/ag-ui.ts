// AG-UI 1.0, the protocol between agents and their UIs (CopilotKit, assistant-ui): a run's StreamEvents as
// AG-UI events, a halt's open requests as Interrupts, and a resume entry back as the Answer its request's
// kind expects. Written here rather than imported: the protocol is a few plain JSON shapes, and its
// packages (zod, rxjs) would be most of a Worker's bytes. Fields without a value are left out, never null.
import { answerApproval, answerDeclined, answerForm, answerOutput, relayAnswer } from "../answer";
import { isPlainObject } from "../_internal/json";
import type { Answer, JSONSchema, PendingRequest, RelayResult, RunResult, StreamEvent } from "../types";

/** One AG-UI event: its `type` (an `EventType` name) and its fields. */
export type AgUiEvent = { type: string } & Record<string, unknown>;

/** What AG-UI calls an Interrupt: why a run stopped, and what answers it. */
export interface Interrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
}

/** One entry of `RunAgentInput.resume`. */
export interface ResumeEntry {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
  metadata?: Record<string, unknown>;
}

/** A halted call as the stored suspension names it: the request's first call. */
export interface SuspendedCall {
  id: string;
  name: string;
}

/** A `pending` event with the call it suspended (the handler reads it from the stored run). */
export type PendingWithCall = Extract<StreamEvent, { type: "pending" }> & { call?: SuspendedCall };

/** The options a question offers, as one JSON Schema: one of them, or (with `multiple`) a list of them. */
function questionSchema(request: PendingRequest): Record<string, unknown> {
  const data = (request.data ?? {}) as { questions?: { options?: string[]; multiple?: boolean }[] };
  const first = data.questions?.[0] ?? (request.data as { options?: string[]; multiple?: boolean } | undefined);
  const options = first?.options;
  if (!Array.isArray(options) || options.length === 0) return { type: "string" };
  const one = { type: "string", enum: options };
  return first?.multiple ? { type: "array", items: one } : one;
}

/** The Interrupt of an open request: its reason by kind, what answers it, and its token in `metadata`. */
export function interruptOf(request: PendingRequest, call: SuspendedCall | undefined, token?: string): Interrupt {
  const metadata: Record<string, unknown> = {};
  if (token !== undefined) metadata.token = token;
  const interrupt: Interrupt = { id: request.id, reason: `toolnexus:${request.kind}`, message: request.prompt };
  switch (request.kind) {
    case "approval":
      interrupt.reason = "tool_call";
      if (call) interrupt.toolCallId = call.id;
      interrupt.responseSchema = {
        type: "object",
        properties: { approved: { type: "boolean" } },
        required: ["approved"],
      };
      break;
    case "input": {
      const schema = (request.data as { schema?: JSONSchema } | undefined)?.schema;
      interrupt.reason = "input_required";
      interrupt.responseSchema = isPlainObject(schema) ? schema : { type: "string" };
      break;
    }
    case "question":
      interrupt.reason = "input_required";
      interrupt.responseSchema = questionSchema(request);
      break;
    case "authorization":
      metadata.url = request.url;
      break;
  }
  if (request.expiresAt !== undefined) interrupt.expiresAt = request.expiresAt;
  if (Object.keys(metadata).length > 0) interrupt.metadata = metadata;
  return interrupt;
}

/** What a resolved entry's payload must be for the kind, said when it is something else. */
class PayloadError extends Error {}

const payloadOf = (entry: ResumeEntry, what: string): never => {
  throw new PayloadError(`the answer to interrupt "${entry.interruptId}" must be ${what}`);
};

/**
 * The Answer a resume entry gives the request it addresses (the STORED request, never the client's copy):
 * `cancelled` or `{ approved: false }` declines; an approval takes `{ approved: true }`; an input with a
 * schema an object of it, without one a string; a question the option or options chosen; a relay
 * `{ results }`; another kind a string or an object. Throws a PayloadError naming what was expected.
 */
export function answerOfEntry(request: PendingRequest, entry: ResumeEntry): Answer {
  const { id } = request;
  const payload = entry.payload;
  if (entry.status === "cancelled") return answerDeclined(id, "cancelled");
  if (request.kind === "approval") {
    const approved = isPlainObject(payload) ? payload.approved : undefined;
    if (typeof approved !== "boolean") payloadOf(entry, "{ approved: true | false }");
    return approved ? answerApproval(id) : answerDeclined(id);
  }
  if (isPlainObject(payload) && payload.approved === false) return answerDeclined(id);
  if (request.kind === "tool_call") {
    const results = isPlainObject(payload) ? payload.results : undefined;
    if (!Array.isArray(results)) payloadOf(entry, "{ results: [{ id, output }] }");
    return relayAnswer(id, results as RelayResult[]);
  }
  if (typeof payload === "string") return answerOutput(id, payload);
  if (request.kind === "question" && Array.isArray(payload) && payload.every((p) => typeof p === "string"))
    return answerForm(id, { answers: payload });
  if (isPlainObject(payload)) return answerForm(id, payload);
  if (request.kind === "authorization" && payload === undefined) return { id, ok: true };
  return payloadOf(entry, "a string or a JSON object");
}

export { PayloadError };

/** What the encoder keeps between events: the message and calls open now, the interrupts seen. */
interface Open {
  text?: string;
  reasoning?: string;
  calls: Set<string>;
  n: number;
  interrupts: Interrupt[];
}

/**
 * A stateful encoder of one run's StreamEvents as AG-UI events: `start()` first, then `encode(event)` for
 * each; a `done` or `error` ends the run (exactly one RUN_FINISHED or RUN_ERROR, and nothing after it).
 * `state` is what a halt's STATE_SNAPSHOT carries (the state the client sent: the server keeps the rest).
 */
export function agUiEncoder(threadId: string, runId: string, state: unknown = {}) {
  const open: Open = { calls: new Set(), n: 0, interrupts: [] };
  const id = (what: string) => `${runId}-${what}${++open.n}`;
  const closeText = (out: AgUiEvent[]) => {
    if (open.text) out.push({ type: "TEXT_MESSAGE_END", messageId: open.text });
    open.text = undefined;
  };
  const closeReasoning = (out: AgUiEvent[]) => {
    if (!open.reasoning) return;
    out.push(
      { type: "REASONING_MESSAGE_END", messageId: open.reasoning },
      { type: "REASONING_END", messageId: open.reasoning },
    );
    open.reasoning = undefined;
  };
  const closeAll = (out: AgUiEvent[]) => {
    closeText(out);
    closeReasoning(out);
    for (const toolCallId of open.calls) out.push({ type: "TOOL_CALL_END", toolCallId });
    open.calls.clear();
  };
  const startCall = (out: AgUiEvent[], toolCallId: string, name: string) => {
    closeText(out);
    closeReasoning(out);
    open.calls.add(toolCallId);
    out.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: name });
  };
  const finish = (result: RunResult): AgUiEvent[] => {
    const out: AgUiEvent[] = [];
    closeAll(out);
    if (result.status === "pending" && open.interrupts.length > 0) {
      out.push({ type: "STATE_SNAPSHOT", snapshot: state ?? {} });
      out.push({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: open.interrupts } });
      return out;
    }
    const stopped = result.status === "incomplete" && result.limit === "aborted";
    const outcome = stopped ? { type: "cancelled" } : { type: "success" };
    out.push({ type: "RUN_FINISHED", threadId, runId, outcome, ...(stopped ? {} : { result: result.text }) });
    return out;
  };
  const handlers: { [K in StreamEvent["type"]]?: (event: Extract<StreamEvent, { type: K }>) => AgUiEvent[] } = {
    text: ({ delta }) => {
      const out: AgUiEvent[] = [];
      if (!delta) return out;
      closeReasoning(out);
      if (!open.text) out.push({ type: "TEXT_MESSAGE_START", messageId: (open.text = id("m")), role: "assistant" });
      out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: open.text, delta });
      return out;
    },
    reasoning: ({ delta }) => {
      const out: AgUiEvent[] = [];
      if (!delta) return out;
      closeText(out);
      if (!open.reasoning) {
        const messageId = (open.reasoning = id("r"));
        out.push(
          { type: "REASONING_START", messageId },
          { type: "REASONING_MESSAGE_START", messageId, role: "reasoning" },
        );
      }
      out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: open.reasoning, delta });
      return out;
    },
    tool_input: ({ id: toolCallId, name, delta }) => {
      const out: AgUiEvent[] = [];
      if (!open.calls.has(toolCallId)) startCall(out, toolCallId, name);
      if (delta) out.push({ type: "TOOL_CALL_ARGS", toolCallId, delta });
      return out;
    },
    tool_call: ({ id: toolCallId, name, args }) => {
      const out: AgUiEvent[] = [];
      if (!open.calls.has(toolCallId)) {
        startCall(out, toolCallId, name);
        out.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(args ?? {}) });
      }
      open.calls.delete(toolCallId);
      out.push({ type: "TOOL_CALL_END", toolCallId });
      return out;
    },
    tool_result: ({ id: toolCallId, output }) => [
      {
        type: "TOOL_CALL_RESULT",
        messageId: `${runId}-result-${toolCallId}`,
        toolCallId,
        content: output,
        role: "tool",
      },
    ],
    pending: (event) => {
      const { request, token, call } = event as PendingWithCall;
      open.interrupts.push(interruptOf(request, call, token));
      return [];
    },
    done: ({ result }) => finish(result),
    error: ({ code, message }) => {
      const out: AgUiEvent[] = [];
      closeAll(out);
      out.push({ type: "RUN_ERROR", message, code });
      return out;
    },
  };
  return {
    start: (): AgUiEvent[] => [{ type: "RUN_STARTED", threadId, runId }],
    encode(event: StreamEvent): AgUiEvent[] {
      const handler = handlers[event.type] as ((e: StreamEvent) => AgUiEvent[]) | undefined;
      return handler ? handler(event) : [];
    },
  };
}

/** One AG-UI event as an SSE frame. */
export const agUiFrame = (event: AgUiEvent): string => `data: ${JSON.stringify(event)}\n\n`;
