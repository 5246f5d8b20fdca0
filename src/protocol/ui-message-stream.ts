// The AI SDK's UI message stream, what `useChat` reads (header `x-vercel-ai-ui-message-stream: v1`, SSE
// frames of chunks, `data: [DONE]` last): a run's StreamEvents as chunks, each model turn between
// `start-step` and `finish-step`. An approval is a `tool-approval-request` on its call (the approval id is
// the request id); another kind of request is a client-side tool call `toolnexus_<kind>` whose input is the
// request, answered on the page with `addToolOutput`. Written here rather than imported: the chunks are
// plain JSON, and the `ai` package is far larger than a Worker wants.
import type { PendingRequest, RunResult, StreamEvent } from "../types";
import type { PendingWithCall } from "./ag-ui";

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

interface Open {
  text?: string;
  reasoning?: string;
  step: "none" | "model" | "tools" | "client";
  started: Set<string>;
  n: number;
}

/**
 * A stateful encoder of one exchange's StreamEvents as UI message chunks: `start()` first, then
 * `encode(event)` for each (a `done` or `error` ends with `[DONE]`, written by the frame). `denied` names the
 * calls whose approval this exchange declined: their result is `tool-output-denied`.
 */
export function uiMessageEncoder(prefix: string, denied: ReadonlySet<string> = new Set()) {
  const open: Open = { step: "none", started: new Set(), n: 0 };
  const id = (what: string) => `${prefix}-${what}${++open.n}`;
  const closeParts = (out: UiChunk[]) => {
    if (open.text) out.push({ type: "text-end", id: open.text });
    if (open.reasoning) out.push({ type: "reasoning-end", id: open.reasoning });
    open.text = undefined;
    open.reasoning = undefined;
  };
  /** Opens the step a model event or a tool event belongs to. */
  const step = (out: UiChunk[], kind: "model" | "tools") => {
    if (open.step !== "none" && open.step !== "model" && kind === "model") {
      closeParts(out);
      out.push({ type: "finish-step" });
      open.step = "none";
    }
    if (open.step === "none") out.push({ type: "start-step" });
    open.step = kind;
  };
  const startCall = (out: UiChunk[], toolCallId: string, toolName: string) => {
    if (open.started.has(toolCallId)) return;
    open.started.add(toolCallId);
    out.push({ type: "tool-input-start", toolCallId, toolName, dynamic: true });
  };
  const end = (out: UiChunk[]) => {
    closeParts(out);
    if (open.step !== "none") out.push({ type: "finish-step" });
    open.step = "none";
  };
  const pending = (event: PendingWithCall): UiChunk[] => {
    const out: UiChunk[] = [];
    const { request, call } = event;
    if (request.kind === "approval" && call) {
      step(out, "tools");
      out.push({ type: "tool-approval-request", approvalId: request.id, toolCallId: call.id });
      return out;
    }
    // a step of its own: the page answers the client-side calls of the last step (the suspended call stays
    // open in the step before, and gets its result once they are answered)
    if (open.step !== "client") {
      end(out);
      out.push({ type: "start-step" });
      open.step = "client";
    }
    const toolName = clientToolName(request.kind);
    startCall(out, request.id, toolName);
    const input = clientToolInput(request);
    out.push({ type: "tool-input-available", toolCallId: request.id, toolName, input, dynamic: true });
    return out;
  };
  const handlers: { [K in StreamEvent["type"]]?: (event: Extract<StreamEvent, { type: K }>) => UiChunk[] } = {
    text: ({ delta }) => {
      const out: UiChunk[] = [];
      if (!delta) return out;
      step(out, "model");
      if (open.reasoning) out.push({ type: "reasoning-end", id: open.reasoning });
      open.reasoning = undefined;
      if (!open.text) out.push({ type: "text-start", id: (open.text = id("t")) });
      out.push({ type: "text-delta", id: open.text, delta });
      return out;
    },
    reasoning: ({ delta }) => {
      const out: UiChunk[] = [];
      if (!delta) return out;
      step(out, "model");
      if (!open.reasoning) out.push({ type: "reasoning-start", id: (open.reasoning = id("r")) });
      out.push({ type: "reasoning-delta", id: open.reasoning, delta });
      return out;
    },
    tool_input: ({ id: toolCallId, name, delta }) => {
      const out: UiChunk[] = [];
      step(out, "model");
      startCall(out, toolCallId, name);
      if (delta) out.push({ type: "tool-input-delta", toolCallId, inputTextDelta: delta });
      return out;
    },
    tool_call: ({ id: toolCallId, name, args }) => {
      const out: UiChunk[] = [];
      step(out, "model");
      startCall(out, toolCallId, name);
      out.push({ type: "tool-input-available", toolCallId, toolName: name, input: args ?? {}, dynamic: true });
      return out;
    },
    tool_result: ({ id: toolCallId, output }) => {
      const out: UiChunk[] = [];
      step(out, "tools");
      if (denied.has(toolCallId)) out.push({ type: "tool-output-denied", toolCallId });
      else out.push({ type: "tool-output-available", toolCallId, output, dynamic: true });
      return out;
    },
    pending: (event) => pending(event),
    done: ({ result }) => {
      const out: UiChunk[] = [];
      end(out);
      out.push({ type: "finish", finishReason: FINISH[result.status] ?? "other" });
      return out;
    },
    error: ({ message }) => {
      const out: UiChunk[] = [];
      end(out);
      out.push({ type: "error", errorText: message });
      return out;
    },
  };
  return {
    start: (): UiChunk[] => [{ type: "start" }],
    encode(event: StreamEvent): UiChunk[] {
      const handler = handlers[event.type] as ((e: StreamEvent) => UiChunk[]) | undefined;
      return handler ? handler(event) : [];
    },
  };
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
