// The scripted model behind an OpenAI-style endpoint that exists only in this isolate: the `fetch` the demo's
// client is given. Text goes out in word-sized deltas, as a real model streams it; a turn with `paceMs` sends
// one word each `paceMs` (the long answer a reload or a Stop lands in), and stops sending once the request is
// aborted.
import { scriptedModel, type ScriptedTurn } from "./scripted-model";

const encoder = new TextEncoder();
const chunk = (delta: unknown, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`;

/** The SSE chunks of one turn: its words, then its tool calls, the finish reason and [DONE]. */
function chunksOf(turn: ScriptedTurn): string[] {
  const words = (turn.content ?? "").match(/\S+\s*|\s+/g) ?? [];
  const calls = "toolCalls" in turn ? turn.toolCalls : [];
  return [
    ...words.map((content) => chunk({ content })),
    ...calls.map((c, index) =>
      chunk({
        tool_calls: [
          { index, id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } },
        ],
      }),
    ),
    chunk({}, { finish_reason: calls.length ? "tool_calls" : "stop" }),
    "data: [DONE]\n\n",
  ];
}

/** A turn as one `chat.completion` JSON: what a call that does not stream reads (a sub-agent's run). */
function completionOf(turn: ScriptedTurn): Response {
  const calls = "toolCalls" in turn ? turn.toolCalls : [];
  const toolCalls = calls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const message = {
    role: "assistant",
    content: turn.content ?? null,
    ...(calls.length ? { tool_calls: toolCalls } : {}),
  };
  const finish_reason = calls.length ? "tool_calls" : "stop";
  return Response.json({ object: "chat.completion", choices: [{ index: 0, message, finish_reason }] });
}

const pause = (ms: number, signal: AbortSignal | null | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener("abort", stop, { once: true });
  });

/** A `fetch` answering `POST …/chat/completions` (streamed, or not) with the scripted model's next turn. */
export async function scriptedFetch(_input: unknown, init?: RequestInit): Promise<Response> {
  const body = JSON.parse(String(init?.body)) as { messages: unknown[]; tools?: unknown[]; stream?: boolean };
  const turn = scriptedModel(body);
  if (body.stream !== true) return completionOf(turn);
  const chunks = chunksOf(turn);
  const pace = turn.paceMs ?? 0;
  const signal = init?.signal;
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pace && sent) await pause(pace, signal);
      if (signal?.aborted) return controller.error(signal.reason);
      // an unpaced turn goes out whole; a paced one a word at a time
      const next = pace ? chunks.slice(sent, sent + 1) : chunks.slice(sent);
      sent += next.length;
      controller.enqueue(encoder.encode(next.join("")));
      if (sent >= chunks.length) controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}
