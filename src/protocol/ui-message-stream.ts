// The AI SDK's UI message stream, what `useChat` reads (header `x-vercel-ai-ui-message-stream: v1`, SSE
// frames of chunks, `data: [DONE]` last): a run's StreamEvents as chunks, each model turn between
// `start-step` and `finish-step`. An approval is a `tool-approval-request` on its call (the approval id is
// the request id); another kind of request is a client-side tool call `toolnexus_<kind>` whose input is the
// request, answered on the page with `addToolOutput`. Written here rather than imported: the chunks are
// plain JSON, and the `ai` package is far larger than a Worker wants.
import type { PendingRequest, RunResult, StreamEvent } from "../types";
import type { PendingWithCall } from "./ag-ui";
import { EventEncoder } from "./event-encoder";

/** One chunk of the UI message stream. */
export type UiChunk = { type: string } & Record<string, unknown>;

/** The header a custom back end sets so `useChat` reads the stream. */
export const UI_MESSAGE_STREAM_HEADERS: Record<string, string> = { "x-vercel-ai-ui-message-stream": "v1" };

/** The name of the client-side tool a request of `kind` is asked through. */
export const clientToolName = (kind: string): string => `toolnexus_${kind}`;

/** The input of a request's client-side tool call: what the page needs to answer it. */
export function clientToolInput(request: PendingRequest): Record<string, unknown> {
  const { id, prompt, data, url, expiresAt } = request as PendingRequest & { url?: string };
  return {
    id,
    prompt,
    ...(data === undefined ? {} : { data }),
    ...(url === undefined ? {} : { url }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

const FINISH: Record<RunResult["status"], string> = {
  done: "stop",
  pending: "tool-calls",
  incomplete: "length",
};

/** Where the stream stands: between steps, in a model turn, in its tools, or in the page's client-side calls. */
type Step = "none" | "model" | "tools" | "client";

/**
 * A stateful encoder of one exchange's StreamEvents as UI message chunks: `start()` first, then
 * `encode(event)` for each (a `done` or `error` ends with `[DONE]`, written by the frame). `denied` names the
 * calls whose approval this exchange declined: their result is `tool-output-denied`.
 */
export class UiMessageEncoder extends EventEncoder<UiChunk> {
  private text: string | undefined;
  private reasoning: string | undefined;
  private step: Step = "none";
  private readonly started = new Set<string>();
  constructor(
    prefix: string,
    private readonly denied: ReadonlySet<string> = new Set(),
  ) {
    super(prefix);
  }

  start(): UiChunk[] {
    return [{ type: "start" }];
  }

  protected other(out: UiChunk[], event: StreamEvent): void {
    switch (event.type) {
      case "tool_input":
        this.enter(out, "model");
        this.startCall(out, event.id, event.name);
        if (event.delta) out.push({ type: "tool-input-delta", toolCallId: event.id, inputTextDelta: event.delta });
        break;
      case "tool_call":
        this.enter(out, "model");
        this.startCall(out, event.id, event.name);
        out.push({
          type: "tool-input-available",
          toolCallId: event.id,
          toolName: event.name,
          input: event.args ?? {},
          dynamic: true,
        });
        break;
      case "tool_result":
        this.enter(out, "tools");
        if (this.denied.has(event.id)) out.push({ type: "tool-output-denied", toolCallId: event.id });
        else out.push({ type: "tool-output-available", toolCallId: event.id, output: event.output, dynamic: true });
        break;
      case "pending":
        this.pending(out, event as PendingWithCall);
        break;
      case "done":
        this.end(out);
        out.push({ type: "finish", finishReason: FINISH[event.result.status] ?? "other" });
        break;
      case "error":
        this.end(out);
        out.push({ type: "error", errorText: event.message });
        break;
    }
  }

  protected textDelta(out: UiChunk[], delta: string): void {
    this.enter(out, "model");
    if (this.reasoning) out.push({ type: "reasoning-end", id: this.reasoning });
    this.reasoning = undefined;
    if (!this.text) {
      this.text = this.id("t");
      out.push({ type: "text-start", id: this.text });
    }
    out.push({ type: "text-delta", id: this.text, delta });
  }

  protected reasoningDelta(out: UiChunk[], delta: string): void {
    this.enter(out, "model");
    if (!this.reasoning) {
      this.reasoning = this.id("r");
      out.push({ type: "reasoning-start", id: this.reasoning });
    }
    out.push({ type: "reasoning-delta", id: this.reasoning, delta });
  }

  /** An approval on its call; another request as a client-side call, in a step of its own. */
  private pending(out: UiChunk[], { request, call }: PendingWithCall): void {
    if (request.kind === "approval" && call) {
      this.enter(out, "tools");
      out.push({ type: "tool-approval-request", approvalId: request.id, toolCallId: call.id });
      return;
    }
    // the page answers the client-side calls of the last step; the suspended call stays open in the step
    // before, and gets its result once they are answered
    if (this.step !== "client") {
      this.end(out);
      out.push({ type: "start-step" });
      this.step = "client";
    }
    const toolName = clientToolName(request.kind);
    this.startCall(out, request.id, toolName);
    const input = clientToolInput(request);
    out.push({ type: "tool-input-available", toolCallId: request.id, toolName, input, dynamic: true });
  }

  /** Opens the step a model event or a tool event belongs to: a model turn after tools starts a new one. */
  private enter(out: UiChunk[], kind: "model" | "tools"): void {
    if (kind === "model" && this.step !== "none" && this.step !== "model") this.end(out);
    if (this.step === "none") out.push({ type: "start-step" });
    this.step = kind;
  }

  private startCall(out: UiChunk[], toolCallId: string, toolName: string): void {
    if (this.started.has(toolCallId)) return;
    this.started.add(toolCallId);
    out.push({ type: "tool-input-start", toolCallId, toolName, dynamic: true });
  }

  /** Closes the open parts and the step. */
  private end(out: UiChunk[]): void {
    if (this.text) out.push({ type: "text-end", id: this.text });
    if (this.reasoning) out.push({ type: "reasoning-end", id: this.reasoning });
    this.text = undefined;
    this.reasoning = undefined;
    if (this.step !== "none") out.push({ type: "finish-step" });
    this.step = "none";
  }
}

/** Chunks as SSE frames; after a `finish` or an `error`, the stream's last frame `data: [DONE]`. */
export function uiMessageFrames(chunks: UiChunk[]): string {
  let text = "";
  for (const chunk of chunks) {
    text += `data: ${JSON.stringify(chunk)}\n\n`;
    if (chunk.type === "finish" || chunk.type === "error") text += "data: [DONE]\n\n";
  }
  return text;
}
