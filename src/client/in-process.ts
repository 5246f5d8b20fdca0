// createInProcessClient: the same loop around a host function — no wire, no key. Tests, demos and
// scripted models use it. Internally it is an injected fetch that speaks the OpenAI format, so every
// code path (retries, hooks, streaming, suspension, resume) is the one real clients take.
import { createClient, type Client, type ClientOptions } from "../client";
import type { Usage } from "../types";
import { ConfigError, shown } from "../errors";

export interface GenerateRequest {
  messages: unknown[];
  tools?: unknown[];
  model: string;
  body: Record<string, unknown>;
}

export interface GenerateResult {
  content?: string;
  toolCalls?: { id?: string; name: string; arguments?: unknown }[];
  usage?: Partial<Usage>;
}

export interface InProcessClientOptions extends Omit<ClientOptions, "baseUrl" | "style" | "apiKey" | "fetch"> {
  generate: (req: GenerateRequest) => GenerateResult | Promise<GenerateResult>;
}

function completion(model: string, out: GenerateResult) {
  const calls = (out.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    type: "function",
    function: {
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
  const prompt = out.usage?.promptTokens ?? 0;
  const done = out.usage?.completionTokens ?? 0;
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: done,
    total_tokens: out.usage?.totalTokens ?? prompt + done,
  };
  const message = { role: "assistant", content: out.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
  return {
    id: "in-process",
    object: "chat.completion",
    model,
    choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage,
  };
}

/** The same completion as an OpenAI-style SSE body: text in word-sized deltas, then tool calls, usage, [DONE]. */
function sse(json: ReturnType<typeof completion>): string {
  const choice = json.choices[0]!;
  const chunks: unknown[] = [];
  for (const piece of (choice.message.content ?? "").match(/\S+\s*|\s+/g) ?? [])
    chunks.push({ choices: [{ index: 0, delta: { content: piece } }] });
  (choice.message.tool_calls ?? []).forEach((call, index) =>
    chunks.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] } }] }),
  );
  chunks.push(
    { choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }] },
    { choices: [], usage: json.usage },
  );
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
}

/**
 * A finished completion handed to the loop without encoding it to JSON and parsing it back: the loop
 * reads an ok reply only through `ok`, `status`, `headers` and `json()`. A fresh object per call, so
 * the transcript never shares state with the host's `generate`.
 */
function completed(json: ReturnType<typeof completion>): Response {
  return {
    ok: true,
    status: 200,
    headers: new Headers({ "content-type": "application/json" }),
    body: null,
    json: async () => json,
  } as unknown as Response;
}

/* @__NO_SIDE_EFFECTS__ */
export function createInProcessClient(options: InProcessClientOptions): Client {
  const { generate, ...rest } = options;
  if (typeof generate !== "function")
    throw new ConfigError(
      "generate",
      `toolnexus: createInProcessClient needs a generate function (req) => { content } | { toolCalls }, got ${shown(generate)}`,
    );
  const fetch = async (_input: unknown, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    const out = await generate({
      messages: body.messages as unknown[],
      ...(body.tools ? { tools: body.tools as unknown[] } : {}),
      model: String(body.model),
      body,
    });
    const json = completion(String(body.model), out ?? {});
    if (body.stream) return new Response(sse(json), { headers: { "content-type": "text/event-stream" } });
    return completed(json);
  };
  return createClient({
    retries: 0,
    ...rest,
    baseUrl: "http://in-process.invalid/v1",
    style: "openai",
    apiKey: undefined,
    fetch: fetch as typeof globalThis.fetch,
  });
}
