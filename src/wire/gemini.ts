// Gemini's own API wire (`generateContent`, `streamGenerateContent?alt=sse`): requests and JSON replies;
// SSE replies are assembled in gemini-stream.ts.
//
// The model's content goes back exactly as it came — every part in order, each `thoughtSignature` on the
// part it came on — because Gemini refuses a function call whose signature is missing. Calls carry no id
// (the wire gives each one); those ids are kept beside the parts as `callIds` and left out of the request.
import { firstOf, headersWith, listOf, record, stripSlash, throwIfError, unusable, type Json } from "./read";
import { finishOf, geminiPart, turnOf } from "./gemini-parts";
import type { ToolOutcome, Turn, Wire } from "./types";
import { readStream } from "./gemini-stream";

const functionCalls = (message: unknown): Json[] =>
  listOf(message, "parts").flatMap((p) => {
    const call = record(record(p)?.functionCall);
    return call ? [call] : [];
  });

function parse(json: unknown): Turn {
  const data = record(json);
  throwIfError(data);
  const candidate = firstOf(data, "candidates");
  if (!data || (!candidate && !data.promptFeedback))
    throw unusable("candidates", "gemini", "/v1beta/models/<model>:generateContent");
  return turnOf(listOf(candidate?.content, "parts"), data.usageMetadata, finishOf(data, candidate));
}

/**
 * One user turn answering every call: the `functionResponse` parts in call order, then the images and
 * files the tools returned (the responses stay together, one per call, as Gemini counts them).
 */
function results(outcomes: readonly ToolOutcome[]): unknown[] {
  if (outcomes.length === 0) return [];
  const parts: unknown[] = outcomes.map(({ call, result }) => ({
    // `response` must be an object: a tool's text goes in as `{ result }` (`{ error }` when it failed)
    functionResponse: {
      name: call.name,
      response: result.isError ? { error: result.output } : { result: result.output },
    },
  }));
  for (const { result } of outcomes) for (const part of result.content ?? []) parts.push(geminiPart(part));
  return [{ role: "user", parts }];
}

/** Tool declarations with their schema as `parametersJsonSchema` (full JSON Schema, not the OpenAPI subset). */
function declare(tools: readonly unknown[]): unknown[] {
  const declarations = tools.flatMap((t) => listOf(t, "functionDeclarations"));
  if (declarations.length === 0) return [];
  return [
    {
      functionDeclarations: declarations.map((d) => {
        const { parameters, ...rest } = record(d) ?? {};
        return parameters === undefined ? rest : { ...rest, parametersJsonSchema: parameters };
      }),
    },
  ];
}

/** Gemini's API (`generativelanguage.googleapis.com`): key in `x-goog-api-key`. */
export const geminiWire: Wire = {
  style: "gemini",
  url(baseUrl, model, stream) {
    const base = stripSlash(baseUrl);
    const root = /\/v1(beta|alpha)?\d*$/.test(base) ? base : `${base}/v1beta`;
    const name = encodeURIComponent((model ?? "").replace(/^models\//, ""));
    return `${root}/models/${name}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
  },
  headers: (apiKey) => headersWith("x-goog-api-key", apiKey),
  start(_system, history, prompt) {
    const parts = typeof prompt === "string" ? [{ text: prompt }] : prompt.map(geminiPart);
    return [...history, { role: "user", parts }];
  },
  body({ system, messages, tools, output }) {
    // the transcript as `contents`: each entry's `role` and `parts` only (`callIds` stays here)
    const contents = messages.map((m) => {
      const content = record(m);
      return content && "callIds" in content ? { role: content.role, parts: content.parts } : m;
    });
    const body: Record<string, unknown> = { contents };
    if (system) body.systemInstruction = { parts: [{ text: system }] };
    if (tools.length > 0) body.tools = tools;
    if (output) body.generationConfig = { responseMimeType: "application/json", responseJsonSchema: output };
    return body;
  },
  declare: (toolkit) => declare(toolkit?.toGemini() ?? []),
  parse,
  readStream,
  results,
  callsOf(message) {
    const ids = listOf(message, "callIds");
    return functionCalls(message).map((call, i) => ({
      id: String(ids[i] ?? call.id ?? ""),
      name: String(call.name ?? ""),
    }));
  },
  withCallIds: (message, ids) => ({ ...record(message), callIds: ids.slice() }),
};
