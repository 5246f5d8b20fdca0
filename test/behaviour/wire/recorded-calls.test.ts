// The scenarios every recorded wire answers alike (test/fixtures/wire, sources in its README), replayed
// through run and a durable halt: a recorded call runs, is approved inline or relayed to the host, and the
// next request carries the model's call as recorded and its answer; recorded errors are typed, retried
// only when a retry can help, and never show the key; a cut stream runs no tool. What only one wire does
// stays in its own file (gemini.test.ts, openai-responses.test.ts).
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  relayAnswer,
  relayTool,
  type ContentPart,
  type Tool,
} from "toolnexus";
import * as geminiText from "../../fixtures/wire/gemini/text";
import * as geminiCall from "../../fixtures/wire/gemini/tool-call";
import * as geminiQuota from "../../fixtures/wire/gemini/quota-429";
import * as geminiBadKey from "../../fixtures/wire/gemini/api-key-error";
import * as phase from "../../fixtures/wire/openai-responses/phase";
import * as lmstudio from "../../fixtures/wire/openai-responses/lmstudio-tool-call";
import * as responsesQuota from "../../fixtures/wire/openai-responses/quota-error";
import * as temperature from "../../fixtures/wire/openai-responses/temperature-error";
import * as calculator from "../../fixtures/wire/openai-responses/reasoning-calculator";
import { asPending } from "../../support/results";
import { collect, geminiSSE, json, replay, responsesSSE, type Reply } from "../../support/recorded-replies";

type Json = Record<string, any>;
type ImagePart = Extract<ContentPart, { type: "image" }>;

/** One wire's recordings and request shapes, for the scenarios below. */
interface RecordedWire {
  style: "gemini" | "openai-responses";
  baseUrl: string;
  model: string;
  key: string;
  /** An unstreamed reply calling weather({ location: "San Francisco" }), and a text reply to end on. */
  call: Reply;
  text: Reply;
  /** The call's id as the provider gave it, where it gives one. */
  callId?: string;
  /** The conversation a request sends. */
  turns(body: Json): Json[];
  /** The user's turn for `prompt`, as the wire sends it. */
  user(prompt: string): Json;
  /** What follows the user's turn once the call was answered with `output`: the call as recorded, the answer. */
  answered(output: string): Json[];
  /** An image a tool returns, and the answer turn carrying it after the tool's text "map attached". */
  image: { part: ImagePart; answer: Json };
  /** A recorded 429 and a recorded 400, each with a word of the provider's body. */
  quota: { reply: Reply; word: string };
  refused: { reply: Reply; word: string };
  /** A recorded stream calling `tool`, cut before the provider's end of the turn. */
  cut: { reply: Reply; tool: string };
}

const geminiCallContent = JSON.parse(geminiCall.json).candidates[0].content;
const { id: _fc, ...lmstudioCall } = JSON.parse(lmstudio.json).output[0];

const WIRES: RecordedWire[] = [
  {
    style: "gemini",
    baseUrl: "http://127.0.0.1:9",
    model: "gemini-3-pro-preview",
    key: "key1234",
    call: json(geminiCall.json),
    text: json(geminiText.json),
    turns: (body) => body.contents,
    user: (prompt) => ({ role: "user", parts: [{ text: prompt }] }),
    answered: (output) => [
      geminiCallContent,
      { role: "user", parts: [{ functionResponse: { name: "weather", response: { result: output } } }] },
    ],
    image: {
      part: { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
      // the image follows the functionResponse parts, in the same user turn
      answer: {
        role: "user",
        parts: [
          { functionResponse: { name: "weather", response: { result: "map attached" } } },
          { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
    },
    quota: { reply: json(geminiQuota.json, 429), word: "RESOURCE_EXHAUSTED" },
    refused: { reply: json(geminiBadKey.json, 400), word: "API_KEY_INVALID" }, // the body echoes the bad key
    cut: { reply: geminiSSE(geminiCall.chunks.slice(0, 1)), tool: "weather" },
  },
  {
    style: "openai-responses",
    baseUrl: "http://127.0.0.1:9/v1",
    model: "gpt-5-mini",
    key: "sk-test-responses-1234",
    call: json(lmstudio.json),
    text: json(phase.json),
    callId: "call_2866856768160095",
    turns: (body) => body.input,
    user: (prompt) => ({ role: "user", content: prompt }),
    // the call goes back without the id the provider stored it under
    answered: (output) => [lmstudioCall, { type: "function_call_output", call_id: "call_2866856768160095", output }],
    image: {
      part: { type: "image", url: "https://example.test/map.png", mediaType: "image/png" },
      answer: {
        type: "function_call_output",
        call_id: "call_2866856768160095",
        output: [
          { type: "input_text", text: "map attached" },
          { type: "input_image", image_url: "https://example.test/map.png" },
        ],
      },
    },
    quota: { reply: json(responsesQuota.json, 429), word: "insufficient_quota" },
    refused: { reply: json(temperature.json, 400), word: "temperature" }, // a reasoning model refusing temperature
    cut: {
      reply: responsesSSE(calculator.turn1.filter((l) => !l.includes('"response.completed"'))),
      tool: "calculator",
    },
  },
];

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  execute: ({ location }) => `${String(location)}: 18°C, fog`,
});
const FOG = "San Francisco: 18°C, fog";

for (const w of WIRES) {
  const client = (fetch: typeof globalThis.fetch, extra: Record<string, unknown> = {}) =>
    createClient({ baseUrl: w.baseUrl, style: w.style, model: w.model, apiKey: w.key, fetch, ...extra });

  describe(`a recorded call (${w.style})`, () => {
    it("run: the call runs; the next request carries the call as recorded and its result", async () => {
      const r = replay(w.call, w.text);
      const result = await client(r.fetch).run("Weather in SF?", { toolkit: [weather] });
      expect(result.toolCalls).toEqual([
        {
          id: w.callId ?? expect.any(String),
          name: "weather",
          args: { location: "San Francisco" },
          output: FOG,
          isError: false,
        },
      ]);
      expect(w.turns(r.sent[1]!.body)).toEqual([w.user("Weather in SF?"), ...w.answered(FOG)]);
    });

    it("the image a tool returned goes back with its result in the next request", async () => {
      const mapTool: Tool = {
        name: "weather",
        description: "Weather",
        inputSchema: { type: "object" },
        source: "native",
        execute: async () => ({ output: "map attached", isError: false, content: [w.image.part] }),
      };
      const r = replay(w.call, w.text);
      await client(r.fetch).run("Weather in SF?", { toolkit: [mapTool] });
      const [call] = w.answered("map attached");
      expect(w.turns(r.sent[1]!.body)).toEqual([w.user("Weather in SF?"), call, w.image.answer]);
    });

    it("inline: waitFor answers the approval, the call runs once, its result goes back", async () => {
      const asked: string[] = [];
      const guarded: Tool = { ...weather, needsApproval: true };
      const r = replay(w.call, w.text);
      const result = await client(r.fetch, {
        waitFor: async (request: { id: string; kind: string }) => (
          asked.push(request.kind), answerOutput(request.id, "yes")
        ),
      }).run("Weather in SF?", { toolkit: [guarded] });
      expect(asked).toEqual(["approval"]);
      expect(result.status).toBe("done");
      expect(result.toolCalls.map((c) => c.output)).toEqual([FOG]);
      expect(w.turns(r.sent[1]!.body)).toEqual([w.user("Weather in SF?"), ...w.answered(FOG)]);
    });

    it("relay: the host runs the call between a halt and a resume; the resumed request answers it", async () => {
      const storage = memoryStorage();
      const relayed = relayTool("weather", "The weather", { type: "object" });
      const halted = asPending(
        await client(replay(w.call).fetch, { storage }).run("Weather in SF?", { toolkit: [relayed] }),
      );
      const [call] = halted.pending.data!.calls as { id: string; input: unknown }[];
      expect(call!.input).toEqual({ location: "San Francisco" });
      if (w.callId) expect(call!.id).toBe(w.callId);
      const later = replay(w.text);
      await client(later.fetch, { storage }).resume(
        halted.runId,
        relayAnswer(halted.pending.id, [{ id: call!.id, output: "sunny" }]),
        { toolkit: [relayed] },
      );
      expect(w.turns(later.sent[0]!.body)).toEqual([w.user("Weather in SF?"), ...w.answered("sunny")]);
    });
  });

  describe(`recorded errors (${w.style})`, () => {
    const options = { retries: 1, retryBaseMs: 0 };

    // how long a recorded 429 waits before its retry (Gemini's RetryInfo: 34.4 s) is in post.test.ts
    it("a 429 with no retries left is an LlmHttpError with the provider's body", async () => {
      const r = replay(w.quota.reply, w.text);
      const error = await client(r.fetch, { ...options, retries: 0 })
        .run("hi")
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "LlmHttpError", status: 429 });
      expect((error as { body: string }).body).toContain(w.quota.word);
      expect(r.sent).toHaveLength(1);
    });

    it("a 400 is not retried; the error has the provider's words and never the key", async () => {
      const r = replay(w.refused.reply, w.text);
      const error = await client(r.fetch, options)
        .run("hi")
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "LlmHttpError", status: 400 });
      const { body, message } = error as { body: string; message: string };
      expect(body).toContain(w.refused.word);
      expect(body + message).not.toContain(w.key);
      expect(r.sent).toHaveLength(1);
    });

    it("a stream cut before the end of its turn is a StreamError: no tool runs on half-received arguments", async () => {
      let ran = false;
      const tool = defineTool({ name: w.cut.tool, description: "t", execute: () => ((ran = true), "x") });
      await expect(collect(client(replay(w.cut.reply).fetch).stream("hi", { toolkit: [tool] }))).rejects.toMatchObject({
        name: "StreamError",
      });
      expect(ran).toBe(false);
    });
  });
}
