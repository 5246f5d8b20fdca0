// OpenAI's Responses API wire (`/v1/responses`): requests and JSON replies; SSE replies are assembled in
// openai-responses-stream.ts.
//
// Nothing is kept at the provider (`store: false`): every request carries the whole transcript, and the
// model's reasoning travels in it as `reasoning` items with their `encrypted_content`, so a run halted for a
// day resumes in another process with the reasoning it had. One assistant turn is several output items
// (reasoning, message, function_call); the transcript holds it as one `{ role: "assistant", output }`
// entry, and the request spreads it back into the items it came as.
import { entryCalls, withEntryIds, type CallEntries } from "./calls";
import { headersWith, record, stripSlash, throwIfError, unusable } from "./read";
import { finishOf, inputPart, turnOf } from "./openai-responses-items";
import type { ToolOutcome, Turn, Wire } from "./types";
import { readStream } from "./openai-responses-stream";

/**
 * Whether `model` reasons (o-series, gpt-5 and codex models; a gateway's `openai/` prefix allowed): only those
 * accept `include: ["reasoning.encrypted_content"]` — any other model answers 400 "Encrypted content is not
 * supported with this model". `requestParams: { include }` decides for a name this does not know.
 */
const reasons = (model: string): boolean => /^(?:[\w-]+\/)?(?:o\d|gpt-5|codex)(?![\w.-]*-chat)/i.test(model);

function parse(json: unknown): Turn {
  const data = record(json);
  throwIfError(data);
  if (!data || !Array.isArray(data.output)) throw unusable("output array", "openai-responses", "/responses");
  return turnOf(data.output, data.usage, finishOf(data));
}

/**
 * What the model said, as the next request's input items. Reasoning items go back whole (their
 * `encrypted_content` unchanged); the other items without their `id`, which names an item stored at the
 * provider, and none is.
 */
function inputOf(messages: readonly unknown[]): unknown[] {
  return messages.flatMap((message) => {
    const turn = record(message);
    if (turn?.role !== "assistant" || !Array.isArray(turn.output)) return [message];
    return turn.output.map((value) => {
      const item = record(value);
      if (!item || item.type === "reasoning" || item.id === undefined) return value;
      const { id: _stored, ...rest } = item;
      return rest;
    });
  });
}

function results(outcomes: readonly ToolOutcome[]): unknown[] {
  return outcomes.map(({ call, result }) => ({
    type: "function_call_output",
    call_id: call.id,
    // its text, or its text followed by the images and files it returned
    output: result.content?.length
      ? [{ type: "input_text", text: result.output }, ...result.content.map(inputPart)]
      : result.output,
  }));
}

/** Chat-completions declarations (`{ type, function: {…} }`) in the Responses API's flat shape. */
function flat(tools: readonly unknown[]): unknown[] {
  return tools.map((tool) => {
    const fn = record(record(tool)?.function);
    // not strict: a tool's schema need not meet strict mode's rules (every property required, no extras)
    return fn
      ? { type: "function", name: fn.name, description: fn.description, parameters: fn.parameters, strict: false }
      : tool;
  });
}

const FUNCTION_CALLS: CallEntries = { list: "output", type: "function_call", id: "call_id" };

/** OpenAI's Responses API, and the servers that speak it (Azure OpenAI, LiteLLM, OpenRouter, …). */
export const openaiResponsesWire: Wire = {
  style: "openai-responses",
  url: (baseUrl) => `${stripSlash(baseUrl)}/responses`,
  headers: (apiKey) => headersWith("Authorization", apiKey && `Bearer ${apiKey}`),
  start(_system, history, prompt) {
    const content = typeof prompt === "string" ? prompt : prompt.map(inputPart);
    return [...history, { role: "user", content }];
  },
  body({ model, system, messages, tools, stream, output, strict }) {
    const body: Record<string, unknown> = { model };
    if (system) body.instructions = system;
    body.input = inputOf(messages);
    if (tools.length > 0) {
      body.tools = tools;
      body.tool_choice = "auto";
    }
    // strict as the loop asks (wire/strictable.ts): sent again without it when strict mode refuses the schema
    if (output)
      body.text = {
        format: {
          type: "json_schema",
          name: "output",
          schema: output,
          ...(strict ? { strict: true } : {}),
        },
      };
    body.store = false;
    if (reasons(model)) body.include = ["reasoning.encrypted_content"];
    if (stream) body.stream = true;
    return body;
  },
  declare: (toolkit) => flat(toolkit?.toOpenAI() ?? []),
  parse,
  readStream,
  results,
  callsOf: (message) => entryCalls(message, FUNCTION_CALLS),
  withCallIds: (message, ids) => withEntryIds(message, ids, FUNCTION_CALLS),
};
