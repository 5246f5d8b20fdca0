// Replies in the shapes real providers send (recorded, trimmed to what matters), through a client with
// an injected fetch. Streams are cut at every byte boundary: what comes back never depends on chunking.
import { describe, expect, it } from "vitest";
import { createClient, isToolnexusError, LlmHttpError, StreamError, type RunResult } from "toolnexus";
import { everySplit, openaiSSE } from "../../support/wire-streams";

const base = { baseUrl: "http://127.0.0.1:9/v1", style: "openai" as const, model: "m", apiKey: "sk-test-1234567890" };

/** A fetch answering every call with `body` (a stream when `sse`), as a provider would. */
function answering(body: string | (() => ReadableStream<Uint8Array>), type: string, status = 200) {
  return (async () =>
    new Response(typeof body === "string" ? body : body(), {
      status,
      headers: { "content-type": type },
    })) as unknown as typeof fetch;
}

/** The text and assistant message of a one-turn run, streamed at every split of `sse`. */
async function everyWay(sse: string): Promise<{ text: string; message: unknown }[]> {
  const out: { text: string; message: unknown }[] = [];
  for (const { stream } of everySplit(sse)) {
    const client = createClient({ ...base, retries: 0, fetch: answering(stream, "text/event-stream") });
    let deltas = "";
    let result: RunResult | undefined;
    for await (const e of client.stream("hi")) {
      if (e.type === "text") deltas += e.delta;
      if (e.type === "done") result = e.result;
    }
    expect(deltas).toBe(result?.text);
    out.push({ text: result!.text, message: result!.messages.at(-1) });
  }
  return out;
}

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "m",
  choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
  ...extra,
});
const finish = (reason: string, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "m",
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
  ...extra,
});

describe("OpenAI refusals", () => {
  const REFUSAL = "I'm sorry, I can't help with that.";

  it("a streamed refusal is the run's text and stays in the transcript, as it does without streaming", async () => {
    const sse = openaiSSE([
      chunk({ role: "assistant", content: null, refusal: "" }),
      chunk({ refusal: "I'm sorry, " }),
      chunk({ refusal: "I can't help with that." }),
      finish("stop"),
    ]);
    const json = JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: null, refusal: REFUSAL }, finish_reason: "stop" }],
      usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
    });
    const plain = await createClient({ ...base, fetch: answering(json, "application/json") }).run("hi");
    expect(plain.text).toBe(REFUSAL);
    for (const streamed of await everyWay(sse)) {
      expect(streamed.text).toBe(plain.text);
      expect(streamed.message).toEqual({ role: "assistant", content: null, refusal: REFUSAL });
    }
  });
});

describe("content as an array of parts (Mistral)", () => {
  it("text parts are the text, thinking parts are not; the first part is never lost", async () => {
    const sse = openaiSSE([
      chunk({ role: "assistant", content: "" }),
      chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "adding" }] }] }),
      chunk({ content: [{ type: "text", text: "2 + 2" }] }),
      chunk({ content: [{ type: "text", text: " = 4" }] }),
      finish("stop", { usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } }),
    ]);
    for (const streamed of await everyWay(sse)) expect(streamed.text).toBe("2 + 2 = 4");
  });

  it("a number split across a parts chunk and a string chunk arrives whole", async () => {
    const sse = openaiSSE([
      chunk({ content: [{ type: "text", text: "3" }] }),
      chunk({ content: "91" }),
      finish("stop"),
    ]);
    for (const streamed of await everyWay(sse)) expect(streamed.text).toBe("391");
  });
});

describe("usage repeated as a running total on every chunk (Perplexity)", () => {
  it("is counted once: the last total is the turn's usage", async () => {
    const running = (completion: number) => ({
      usage: { prompt_tokens: 12, completion_tokens: completion, total_tokens: 12 + completion },
    });
    const sse = openaiSSE([
      chunk({ role: "assistant", content: "Par" }, running(1)),
      chunk({ content: "is" }, running(2)),
      chunk({ content: "." }, running(3)),
      finish("stop", running(3)),
    ]);
    for (const { stream } of everySplit(sse)) {
      const client = createClient({ ...base, fetch: answering(stream, "text/event-stream") });
      let usage: unknown;
      for await (const e of client.stream("capital of France?")) if (e.type === "done") usage = e.result.usage;
      expect(usage).toEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
    }
  });
});

describe("an OpenAI 429 naming the organization", () => {
  it("keeps the organization id out of the error message and body", async () => {
    const body = JSON.stringify({
      error: {
        message:
          "Rate limit reached for gpt-4o in organization org-Xq7rT2bLm9KcP4wZ on tokens per min (TPM): Limit 30000, Used 29882, Requested 512.",
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
    const client = createClient({ ...base, retries: 0, fetch: answering(body, "application/json", 429) });
    const error = await client.run("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    const { message, body: kept } = error as LlmHttpError;
    expect(message).toContain("Rate limit reached");
    for (const text of [message, kept]) expect(text).not.toContain("org-Xq7rT2bLm9KcP4wZ");
  });
});

describe("a streaming request answered with something that is not an event stream", () => {
  it("an HTML page is a StreamError saying so, with the content type that came back", async () => {
    const html = "<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>";
    const client = createClient({ ...base, fetch: answering(html, "text/html; charset=utf-8") });
    const error = await (async () => {
      for await (const _ of client.stream("hi"));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).message).toContain("not an event stream");
    expect((error as StreamError).message).toContain("text/html");
  });

  it("a JSON completion (a server that ignored stream: true) is named the same way", async () => {
    const json = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "hi" } }] });
    const client = createClient({ ...base, fetch: answering(json, "application/json") });
    const error = await (async () => {
      for await (const _ of client.stream("hi"));
    })().catch((e: unknown) => e);
    expect(isToolnexusError(error) && error.code).toBe("stream");
    expect((error as Error).message).toContain("not an event stream (content-type: application/json)");
  });

  it("a JSON error object is the provider's error", async () => {
    const json = JSON.stringify({ error: { message: "model not found", type: "invalid_request_error" } });
    const client = createClient({ ...base, fetch: answering(json, "application/json") });
    const error = await (async () => {
      for await (const _ of client.stream("hi"));
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect((error as Error).message).toContain("model not found");
  });
});
