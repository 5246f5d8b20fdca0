// `translate`: one provider call described in OpenAI chat terms, nothing executed. Pure: the OpenAI
// messages are converted for Anthropic here, the body is shaped and the reply read by the client's wire,
// and the client supplies the transport.
import { isPlainObject } from "../_internal/json";
import { ConfigError, shown } from "../errors";
import { toOpenAI } from "../tools/declarations";
import type { Usage } from "../types";
import type { Tool, Toolkit, ToolkitLike } from "../tools/types";
import { listOf, record, str, textOf } from "../wire/read";
import { historyParts, openaiPart, openaiToAnthropicPart } from "../wire/content";
import { callOf } from "../wire/openai";
import type { Wire } from "../wire/types";

export interface TranslateRequest {
  /** OpenAI chat messages (`system`/`developer`/`user`/`assistant`/`tool`). */
  messages: unknown[];
  /** Extra tool declarations (OpenAI `{type:"function",function}` entries, or native ones). */
  tools?: unknown[];
  /** Declared to the model in its native shape; never executed. A plain `Tool[]` works too. */
  toolkit?: ToolkitLike;
  /** OpenAI `tool_choice`; mapped for Anthropic. */
  toolChoice?: unknown;
  /** Replaces any system/developer message and the client's `systemPrompt`. */
  system?: string;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface TranslateResult {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** `"tool_calls"`, `"length"`, `"content_filter"` or `"stop"`. */
  finishReason: string;
  usage: Usage;
  model: string;
  raw: unknown;
}

type Msg = Record<string, unknown>;

const isSystem = (m: unknown): boolean => isPlainObject(m) && (m.role === "system" || m.role === "developer");
/** An image or a file, in OpenAI's shape, Anthropic's or the neutral one. */
const isMedia = (p: unknown): boolean =>
  isPlainObject(p) && (p.type === "image_url" || p.type === "file" || p.type === "image" || p.type === "document");
/** The parts of a message's `content` of one type (blocks already in Anthropic's shape). */
const native = (m: Msg, type: string): unknown[] =>
  listOf(m, "content").filter((p) => isPlainObject(p) && p.type === type);

/** An assistant turn's blocks: its text, native `tool_use` blocks, then its calls (the legacy `function_call` last). */
function assistantBlocks(m: Msg): unknown[] {
  const calls = listOf(m, "tool_calls").filter(isPlainObject);
  if (isPlainObject(m.function_call))
    calls.push({ id: `call_${str(m.function_call.name)}`, function: m.function_call });
  const text = textOf(m.content);
  return [
    ...(text ? [{ type: "text", text }] : []),
    ...native(m, "tool_use"),
    ...calls.map((call) => {
      // arguments are read as the wire reads a model's: a JSON object (a string of one, or parsed), else {}
      const { id, name, args } = callOf(call);
      return { type: "tool_use", id, name, input: args };
    }),
  ];
}

/** A message as sent: a string is a user turn; anything but an object is an empty one. */
function messageOf(raw: unknown): Msg {
  if (typeof raw === "string") return { role: "user", content: raw };
  return isPlainObject(raw) ? raw : {};
}

/**
 * OpenAI chat messages in Anthropic terms: system/developer hoisted (joined `\n\n`), tool results as
 * `tool_result` blocks (consecutive ones merged into one user turn), assistant `tool_calls` as
 * `tool_use` blocks (string or object arguments; malformed ⇒ `{}`), empty turns dropped, a user turn with
 * images or files as Anthropic blocks (`image_url` ⇒ `image`, inline `file` ⇒ `document`, neutral content
 * parts converted), everything else a user turn with its text. No tool call and no tool result is ever dropped.
 */
export function openAIMessagesToAnthropic(messages: unknown[]): { system: string; messages: unknown[] } {
  const system: string[] = [];
  const out: Msg[] = [];
  let resultTurn: unknown[] | undefined; // the open user turn of tool results
  messages.forEach((raw, at) => {
    const m = messageOf(raw);
    const { role, content } = m;
    const text = textOf(content);
    if (isSystem(m)) {
      if (text) system.push(text);
      return;
    }
    if (role === "tool" || role === "function") {
      const id = str(m.tool_call_id) || (role === "function" ? `call_${str(m.name)}` : "");
      const block = { type: "tool_result", tool_use_id: id, content: text };
      if (resultTurn) resultTurn.push(block);
      else {
        resultTurn = [block];
        out.push({ role: "user", content: resultTurn });
      }
      return;
    }
    resultTurn = undefined;
    if (role === "assistant") {
      const blocks = assistantBlocks(m);
      if (blocks.length) out.push({ role, content: blocks });
    } else if (Array.isArray(content) && content.some(isMedia)) {
      const parts = content.map((p, i) => openaiToAnthropicPart(p, `messages[${at}].content[${i}]`));
      out.push({ role: "user", content: parts });
    } else {
      const results = native(m, "tool_result");
      if (results.length) out.push({ role: "user", content: text ? [...results, { type: "text", text }] : results });
      else if (text) out.push({ role: "user", content: text });
    }
  });
  return { system: system.join("\n\n"), messages: out };
}

/** An OpenAI function entry in Anthropic's shape; a native entry as it is. */
function anthropicTool(tool: unknown): unknown {
  const fn = record(record(tool)?.function);
  if (!fn) return tool;
  return {
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    input_schema: fn.parameters ?? { type: "object", properties: {} },
  };
}

/** OpenAI's `tool_choice` for Anthropic: `"required"`/`"any"`, `"none"`, a named function; Anthropic's own as it is. */
function anthropicToolChoice(choice: unknown): unknown {
  const c = record(choice);
  const name = record(c?.function)?.name;
  if (typeof name === "string") return { type: "tool", name };
  let type = choice === "required" ? "any" : choice;
  if (c) type = c.type;
  if (type === "any" || type === "none" || (type === "tool" && typeof c?.name === "string"))
    return c ? { ...c } : { type };
  return undefined;
}

/** A tool call whose object arguments are sent as the JSON string OpenAI takes; any other entry as it is. */
const stringArgs = (c: unknown): unknown => {
  const fn = record(record(c)?.function);
  return fn && typeof fn.arguments !== "string"
    ? { ...(c as Msg), function: { ...fn, arguments: JSON.stringify(fn.arguments ?? {}) } }
    : c;
};

/**
 * OpenAI messages as sent: neutral content parts of user messages in OpenAI's shape; `system` replaces any
 * system/developer message; object arguments become strings.
 */
function openAIMessages(messages: unknown[], system: string | undefined, fallback: string | undefined): unknown[] {
  const chat = historyParts(messages, openaiPart, "messages");
  const out = (system === undefined ? chat : chat.filter((m) => !isSystem(m))).map((m) =>
    isPlainObject(m) && Array.isArray(m.tool_calls) ? { ...m, tool_calls: m.tool_calls.map(stringArgs) } : m,
  );
  const prompt = system ?? (out.some(isSystem) ? "" : (fallback ?? ""));
  return prompt ? [{ role: "system", content: prompt }, ...out] : out;
}

/**
 * The provider body for a translate request, shaped by the wire as the loop's are; translate adds the
 * caller's tool choice (mapped for Anthropic) and max tokens, and never a default tool choice. System
 * precedence, both styles: `req.system` (replacing any system/developer message), else the conversation's
 * own system/developer messages, else `systemPrompt`.
 */
export function translateBody(
  wire: Wire,
  model: string,
  systemPrompt: string | undefined,
  req: TranslateRequest,
): Record<string, unknown> {
  if (!Array.isArray(req?.messages))
    throw new ConfigError("messages", `toolnexus: translate needs messages as an array, got ${shown(req?.messages)}`);
  // the request is in OpenAI chat terms, converted for Anthropic only: any other wire would be sent it unconverted
  if (wire.style !== "openai" && wire.style !== "anthropic")
    throw new ConfigError(
      "style",
      `toolnexus: translate needs an "openai" or "anthropic" client, not ${shown(wire.style)}`,
    );
  const anthropic = wire.style === "anthropic";
  const toolkit = req.toolkit;
  const declared = Array.isArray(toolkit)
    ? toOpenAI(toolkit as readonly Tool[])
    : wire.declare(toolkit as Toolkit | undefined);
  const tools = [...declared, ...(req.tools ?? [])];
  const converted = anthropic ? openAIMessagesToAnthropic(req.messages) : undefined;
  const body = wire.body({
    model,
    system: converted ? (req.system ?? (converted.system || systemPrompt || "")) : "",
    messages: converted ? converted.messages : openAIMessages(req.messages, req.system, systemPrompt),
    tools: anthropic ? tools.map(anthropicTool) : tools,
    stream: false,
  });
  delete body.tool_choice; // the wire asks for "auto" whenever there are tools; translate sends only the caller's choice
  const toolChoice = anthropic ? anthropicToolChoice(req.toolChoice) : req.toolChoice;
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (typeof req.maxTokens === "number" && req.maxTokens > 0) body.max_tokens = req.maxTokens;
  return body;
}

/** A finish reason as the family names it: `length`, `content_filter`, else `stop`. */
function finishReasonOf(reason: string): string {
  switch (reason) {
    case "length":
    case "max_tokens":
      return "length";
    case "content_filter":
    case "refusal":
      return "content_filter";
    default:
      return "stop";
  }
}

/**
 * Reads a provider's JSON reply with the wire that speaks it (the loop's own reading: a reply carrying an
 * `error`, or no message, is a StreamError whose text is redacted). `model` is the configured model; `raw`
 * keeps the reply as it came. OpenAI extras the loop has no use for are read here: a refusal (its text,
 * and `content_filter`) and the legacy single `function_call`.
 */
export function translateResponse(wire: Wire, model: string, json: unknown): TranslateResult {
  const turn = wire.parse(json);
  const calls = [...turn.calls];
  let reason = turn.finishReason ?? "";
  if (wire.style === "openai") {
    const msg = turn.message as Msg;
    if (isPlainObject(msg.function_call))
      calls.push(callOf({ id: `call_${str(msg.function_call.name)}`, function: msg.function_call }));
    // the wire has the refusal in the text already
    if (str(msg.refusal) && reason === "stop") reason = "refusal";
  }
  // an empty arguments string is read as {} by the wire, so it is sent on as "{}"
  const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.raw || "{}" }));
  return {
    text: turn.text,
    toolCalls,
    finishReason: toolCalls.length ? "tool_calls" : finishReasonOf(reason),
    usage: turn.usage,
    model,
    raw: json,
  };
}
