// Scripted provider endpoints: an injected `fetch` that plays a server of any of the four styles, JSON or
// SSE (chunked at any size), and records every request body it got — so tools and runs are tested without
// a model: `createClient({ baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test",
// fetch: scripted("openai", [{ calls: [{ name: "book" }] }, { text: "done" }]).fetch })`.
import type { Style } from "../types";
import { geminiJson, geminiSse, responsesJson, responsesSse } from "./scripted-wires";

export interface ScriptCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  /** Raw arguments string, sent verbatim (for malformed-argument tests). */
  raw?: string;
}
export interface ScriptTurn {
  text?: string;
  calls?: ScriptCall[];
  usage?: { prompt: number; completion: number };
}
export type Step = ScriptTurn | ((body: Record<string, any>) => ScriptTurn);

export interface Scripted {
  fetch: typeof fetch;
  /** Every request body received, parsed. */
  bodies: Record<string, any>[];
  urls: string[];
  headers: Record<string, string>[];
}

const enc = new TextEncoder();

function chunked(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = enc.encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const argsOf = (c: ScriptCall) => c.raw ?? JSON.stringify(c.args ?? {});
const usageOf = (t: ScriptTurn) => t.usage ?? { prompt: 10, completion: 5 };

function openaiJson(t: ScriptTurn, i: number) {
  const calls = (t.calls ?? []).map((c, k) => ({
    id: c.id ?? `call_${i}_${k}`,
    type: "function",
    function: { name: c.name, arguments: argsOf(c) },
  }));
  const u = usageOf(t);
  return {
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: t.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion },
  };
}

function openaiSse(t: ScriptTurn, i: number): string {
  const json = openaiJson(t, i);
  const msg = json.choices[0]!.message as {
    content: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  };
  const lines: unknown[] = [];
  const text = msg.content ?? "";
  for (let k = 0; k < text.length; k += 3)
    lines.push({ choices: [{ index: 0, delta: { content: text.slice(k, k + 3) } }] });
  (msg.tool_calls ?? []).forEach((c, index) => {
    const a = c.function.arguments;
    const half = Math.floor(a.length / 2);
    lines.push({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index, id: c.id, type: "function", function: { name: c.function.name, arguments: a.slice(0, half) } },
            ],
          },
        },
      ],
    });
    lines.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: a.slice(half) } }] } }] });
  });
  lines.push({ choices: [{ index: 0, delta: {}, finish_reason: json.choices[0]!.finish_reason }] });
  lines.push({ choices: [], usage: json.usage });
  return `${lines.map((l) => `data: ${JSON.stringify(l)}\r\n\r\n`).join("")}: keep-alive\n\ndata: [DONE]\n\n`;
}

function anthropicJson(t: ScriptTurn, i: number) {
  const content: unknown[] = [];
  if (t.text) content.push({ type: "text", text: t.text });
  (t.calls ?? []).forEach((c, k) =>
    content.push({
      type: "tool_use",
      id: c.id ?? `toolu_${i}_${k}`,
      name: c.name,
      input: c.raw !== undefined ? c.raw : (c.args ?? {}),
    }),
  );
  const u = usageOf(t);
  return {
    id: `msg_${i}`,
    type: "message",
    role: "assistant",
    content,
    stop_reason: t.calls?.length ? "tool_use" : "end_turn",
    usage: { input_tokens: u.prompt, output_tokens: u.completion },
  };
}

function anthropicSse(t: ScriptTurn, i: number): string {
  const json = anthropicJson(t, i);
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev("message_start", {
    message: {
      ...json,
      content: [],
      stop_reason: null,
      usage: { input_tokens: json.usage.input_tokens, output_tokens: 1 },
    },
  });
  out += ev("ping", {});
  json.content.forEach((block: any, index) => {
    if (block.type === "text") {
      out += ev("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (let k = 0; k < block.text.length; k += 4)
        out += ev("content_block_delta", { index, delta: { type: "text_delta", text: block.text.slice(k, k + 4) } });
    } else {
      out += ev("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      const a = typeof block.input === "string" ? block.input : JSON.stringify(block.input);
      const half = Math.floor(a.length / 2);
      out += ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: a.slice(0, half) } });
      out += ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: a.slice(half) } });
    }
    out += ev("content_block_stop", { index });
  });
  out += ev("message_delta", {
    delta: { stop_reason: json.stop_reason },
    usage: { output_tokens: json.usage.output_tokens },
  });
  return out + ev("message_stop", {});
}

const REPLIES: Record<
  Style,
  { json: (t: ScriptTurn, i: number) => unknown; sse: (t: ScriptTurn, i: number) => string }
> = {
  openai: { json: openaiJson, sse: openaiSse },
  "openai-responses": { json: responsesJson, sse: responsesSse },
  anthropic: { json: anthropicJson, sse: anthropicSse },
  gemini: { json: geminiJson, sse: geminiSse },
};

/**
 * A fetch that answers each model call with the next step of the script (JSON, or SSE when the request
 * asks to stream: `stream` in the body, or Gemini's `alt=sse`), chunked at `chunkSize` bytes. Running past
 * the script fails the test loudly.
 */
export function scripted(style: Style, steps: Step[], opts: { chunkSize?: number } = {}): Scripted {
  const bodies: Record<string, any>[] = [];
  const urls: string[] = [];
  const headers: Record<string, string>[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    const i = bodies.length;
    bodies.push(body);
    urls.push(String(input));
    headers.push(Object.fromEntries(new Headers(init?.headers).entries()));
    const step = steps[i];
    if (!step) throw new Error(`scripted ${style} endpoint: no step ${i} (the model was called ${i + 1} times)`);
    const turn = typeof step === "function" ? step(body) : step;
    const reply = REPLIES[style];
    if (body.stream || String(input).includes("alt=sse")) {
      const text = reply.sse(turn, i);
      return new Response(chunked(text, opts.chunkSize ?? 64), { headers: { "content-type": "text/event-stream" } });
    }
    return Response.json(reply.json(turn, i));
  }) as typeof globalThis.fetch;
  return { fetch, bodies, urls, headers };
}

/** The text of the tool results the model received in a request body, in order (every style). */
export function toolResultsIn(body: Record<string, any>): string[] {
  const out: string[] = [];
  for (const m of body.messages ?? []) {
    if (m.role === "tool") out.push(m.content);
    if (m.role === "user" && Array.isArray(m.content))
      for (const b of m.content) if (b.type === "tool_result") out.push(b.content);
  }
  for (const item of body.input ?? [])
    if (item.type === "function_call_output")
      out.push(typeof item.output === "string" ? item.output : (item.output[0]?.text ?? ""));
  for (const c of body.contents ?? [])
    for (const p of c.parts ?? [])
      if (p.functionResponse) out.push(p.functionResponse.response.result ?? p.functionResponse.response.error);
  return out;
}

/** How many user turns (not tool-result carriers) a request body holds. */
export function userTurnsIn(body: Record<string, any>): number {
  const messages = body.messages ?? body.input ?? [];
  const users = messages.filter(
    (m: any) =>
      m.role === "user" && (typeof m.content === "string" || !m.content.some?.((b: any) => b.type === "tool_result")),
  ).length;
  const contents = (body.contents ?? []).filter(
    (c: any) => c.role === "user" && !c.parts.some((p: any) => p.functionResponse),
  ).length;
  return users + contents;
}
