// AG-UI 1.0, the protocol between agents and their UIs (CopilotKit, assistant-ui): a run's StreamEvents as
// AG-UI events, a halt's open requests as Interrupts, and a resume entry back as the Answer its request's
// kind expects. Written here rather than imported: the protocol is a few plain JSON shapes, and its
// packages (zod, rxjs) would be most of a Worker's bytes. Fields without a value are left out, never null.
import { answerApproval, answerDeclined, answerForm, answerOutput, relayAnswer } from "../answer";
import { isPlainObject } from "../_internal/json";
import { EventEncoder } from "./event-encoder";
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
  /** The sub-agent whose request this is (a delegated agent's question): its handle path, `root/a.1/b.1`. */
  subagentRunId?: string;
}

/** An assistant's tool call in a MESSAGES_SNAPSHOT: its name and arguments (JSON text), never its result. */
export interface AgUiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One message of a MESSAGES_SNAPSHOT: what the page shows — user and assistant text, the assistant's tool calls. */
export interface AgUiMessage {
  id: string;
  role: "user" | "assistant";
  content?: string;
  toolCalls?: AgUiToolCall[];
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

/**
 * A stateful encoder of one run's StreamEvents as AG-UI events: `start()` first, then `encode(event)` for
 * each; a `done` or `error` ends the run (exactly one RUN_FINISHED or RUN_ERROR, and nothing after it).
 * `state` is what a halt's STATE_SNAPSHOT carries (the state the client sent: the server keeps the rest);
 * `history` the page-safe messages before this run, which a halt's MESSAGES_SNAPSHOT holds with the run's own
 * text and tool calls (never a system prompt, a tool's result or what a tool keeps).
 */
export class AgUiEncoder extends EventEncoder<AgUiEvent> {
  /** The text and reasoning messages open now, the calls started and not ended, the interrupts seen. */
  private text: string | undefined;
  private reasoning: string | undefined;
  private readonly calls = new Set<string>();
  private readonly interrupts: Interrupt[] = [];
  /** The sub-agents started in this run, each with the interrupts waiting below it. */
  private readonly subagents = new Map<string, string[]>();
  private readonly messages: AgUiMessage[];
  /** The assistant message of this run the next tool call joins (undefined: a new one). */
  private turn: AgUiMessage | undefined;
  constructor(
    private readonly threadId: string,
    private readonly runId: string,
    private readonly state: unknown = {},
    history: readonly AgUiMessage[] = [],
  ) {
    super(runId);
    this.messages = [...history];
  }

  start(): AgUiEvent[] {
    return [{ type: "RUN_STARTED", threadId: this.threadId, runId: this.runId }];
  }

  protected other(out: AgUiEvent[], event: StreamEvent): void {
    switch (event.type) {
      case "tool_input":
        if (!this.calls.has(event.id)) this.startCall(out, event.id, event.name);
        if (event.delta) out.push({ type: "TOOL_CALL_ARGS", toolCallId: event.id, delta: event.delta });
        break;
      case "tool_call":
        this.toolCall(out, event.id, event.name, event.args);
        break;
      case "tool_result": {
        this.turn = undefined;
        const messageId = `${this.runId}-result-${event.id}`;
        out.push({ type: "TOOL_CALL_RESULT", messageId, toolCallId: event.id, content: event.output, role: "tool" });
        break;
      }
      case "pending": {
        const { request, token, call } = event as PendingWithCall;
        const interrupt = interruptOf(request, call, token);
        this.delegated(out, interrupt, request, call);
        this.interrupts.push(interrupt);
        break;
      }
      case "done":
        this.finish(out, event.result);
        break;
      case "error":
        this.closeAll(out);
        out.push({ type: "RUN_ERROR", message: event.message, code: event.code });
        break;
    }
  }

  /**
   * A request from a delegated agent (`data.path`: the run's own handle, then each sub-agent down to the one
   * that asks): SUBAGENT_STARTED for each sub-agent not seen yet — the first under the call that delegated
   * to it — and the interrupt named for the one that asks.
   */
  private delegated(out: AgUiEvent[], interrupt: Interrupt, request: PendingRequest, call?: SuspendedCall): void {
    const path = request.data?.path;
    if (!Array.isArray(path) || path.length < 3 || !path.every((p) => typeof p === "string")) return;
    let parent: string | undefined;
    for (let depth = 3; depth <= path.length; depth++) {
      const subagentRunId = path.slice(0, depth).join("/");
      if (!this.subagents.has(subagentRunId)) {
        const started: AgUiEvent = { type: "SUBAGENT_STARTED", subagentRunId };
        if (parent !== undefined) started.parentSubagentRunId = parent;
        else if (call) started.parentToolCallId = call.id;
        out.push(started);
        this.subagents.set(subagentRunId, []);
      }
      this.subagents.get(subagentRunId)!.push(interrupt.id);
      parent = subagentRunId;
    }
    interrupt.subagentRunId = parent;
  }

  protected textDelta(out: AgUiEvent[], delta: string): void {
    this.closeReasoning(out);
    if (!this.text) {
      this.text = this.id("m");
      this.turn = { id: this.text, role: "assistant", content: "" };
      this.messages.push(this.turn);
      out.push({ type: "TEXT_MESSAGE_START", messageId: this.text, role: "assistant" });
    }
    this.turn!.content += delta;
    out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: this.text, delta });
  }

  protected reasoningDelta(out: AgUiEvent[], delta: string): void {
    this.closeText(out);
    if (!this.reasoning) {
      const messageId = this.id("r");
      this.reasoning = messageId;
      out.push(
        { type: "REASONING_START", messageId },
        { type: "REASONING_MESSAGE_START", messageId, role: "reasoning" },
      );
    }
    out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: this.reasoning, delta });
  }

  private toolCall(out: AgUiEvent[], toolCallId: string, name: string, args: unknown): void {
    if (!this.calls.has(toolCallId)) {
      this.startCall(out, toolCallId, name);
      out.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(args ?? {}) });
    }
    this.calls.delete(toolCallId);
    out.push({ type: "TOOL_CALL_END", toolCallId });
    this.snapshotCall(toolCallId, name, args);
  }

  /** A call the model made, on this run's assistant message (a new one when none is open). */
  private snapshotCall(id: string, name: string, args: unknown): void {
    if (!this.turn) {
      this.turn = { id: this.id("a"), role: "assistant" };
      this.messages.push(this.turn);
    }
    this.turn.toolCalls ??= [];
    this.turn.toolCalls.push({ id, type: "function", function: { name, arguments: JSON.stringify(args ?? {}) } });
  }

  private startCall(out: AgUiEvent[], toolCallId: string, name: string): void {
    this.closeText(out);
    this.closeReasoning(out);
    this.calls.add(toolCallId);
    out.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: name });
  }

  private closeText(out: AgUiEvent[]): void {
    if (this.text) out.push({ type: "TEXT_MESSAGE_END", messageId: this.text });
    this.text = undefined;
  }

  private closeReasoning(out: AgUiEvent[]): void {
    if (!this.reasoning) return;
    const messageId = this.reasoning;
    out.push({ type: "REASONING_MESSAGE_END", messageId }, { type: "REASONING_END", messageId });
    this.reasoning = undefined;
  }

  private closeAll(out: AgUiEvent[]): void {
    this.closeText(out);
    this.closeReasoning(out);
    for (const toolCallId of this.calls) out.push({ type: "TOOL_CALL_END", toolCallId });
    this.calls.clear();
  }

  /** The run's end: a halt's snapshot and interrupts, a stop as `cancelled`, else success with its text. */
  private finish(out: AgUiEvent[], result: RunResult): void {
    const { threadId, runId } = this;
    this.closeAll(out);
    if (result.status === "pending" && this.interrupts.length > 0) {
      // "terminal for this stream, not for the subagent": the deepest first
      for (const [subagentRunId, interruptIds] of [...this.subagents].reverse())
        out.push({ type: "SUBAGENT_FINISHED", subagentRunId, outcome: "suspended", interruptIds });
      out.push({ type: "MESSAGES_SNAPSHOT", messages: this.messages });
      out.push({ type: "STATE_SNAPSHOT", snapshot: this.state ?? {} });
      out.push({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "interrupt", interrupts: this.interrupts } });
      return;
    }
    if (result.status === "incomplete" && result.limit === "aborted") {
      out.push({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "cancelled" } });
      return;
    }
    out.push({ type: "RUN_FINISHED", threadId, runId, outcome: { type: "success" }, result: result.text });
  }
}

/** One AG-UI event as an SSE frame. */
export const agUiFrame = (event: AgUiEvent): string => `data: ${JSON.stringify(event)}\n\n`;
