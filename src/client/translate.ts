// `translate`: one provider call described in OpenAI chat terms, nothing executed. Pure: the OpenAI
// messages are converted for Anthropic here, the body is shaped and the reply read by the client's wire,
// and the client supplies the transport.
import { isPlainObject } from "../_internal/json";
import { ConfigError, shown } from "../errors";
import { toAnthropic, toOpenAI } from "../tools/declarations";
import type { Tool, Toolkit, ToolkitLike, Usage } from "../types";
import { callFromRaw, callFromValue, textOf } from "../wire/common";
import { historyParts, isNeutral, openaiPart, openaiToAnthropicPart } from "../wire/content";
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

const SYSTEM_ROLES = new Set(["system", "developer"]);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const isSystem = (m: unknown): boolean => isPlainObject(m) && SYSTEM_ROLES.has(m.role as string);

/** Tool arguments as an object, read as the wires read a model's: a JSON object (a string of one, or parsed), else `{}`. */
const parseArgs = (args: unknown): Record<string, unknown> =>
  (typeof args === "string" ? callFromRaw("", "", args) : callFromValue("", "", args)).args;

function assistantToAnthropic(m: Msg, blocks: unknown[]): void {
  if (Array.isArray(m.content)) {
    for (const part of m.content) if (isPlainObject(part) && part.type === "tool_use") blocks.push(part);
  }
  const text = textOf(m.content);
  if (text) blocks.unshift({ type: "text", text });
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  for (const call of calls) {
    if (!isPlainObject(call)) continue;
    const fn = isPlainObject(call.function) ? call.function : {};
    blocks.push({ type: "tool_use", id: str(call.id), name: str(fn.name), input: parseArgs(fn.arguments) });
  }
  if (isPlainObject(m.function_call)) {
    const name = str(m.function_call.name);
    blocks.push({ type: "tool_use", id: `call_${name}`, name, input: parseArgs(m.function_call.arguments) });
  }
}

const MEDIA = new Set(["image_url", "file", "image", "document"]);
/** An image or a file, in OpenAI's shape, Anthropic's or the neutral one. */
const isMedia = (p: unknown): boolean => isPlainObject(p) && MEDIA.has(p.type as string);

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
  for (const raw of messages) {
    const m: Msg = typeof raw === "string" ? { role: "user", content: raw } : isPlainObject(raw) ? raw : {};
    const role = str(m.role);
    if (SYSTEM_ROLES.has(role)) {
      const text = textOf(m.content);
      if (text) system.push(text);
      continue;
    }
    if (role === "tool" || role === "function") {
      const block = {
        type: "tool_result",
        tool_use_id: str(m.tool_call_id) || (role === "function" ? `call_${str(m.name)}` : ""),
        content: textOf(m.content),
      };
      if (resultTurn) resultTurn.push(block);
      else out.push({ role: "user", content: (resultTurn = [block]) });
      continue;
    }
    resultTurn = undefined;
    if (role === "assistant") {
      const blocks: unknown[] = [];
      assistantToAnthropic(m, blocks);
      if (blocks.length) out.push({ role: "assistant", content: blocks });
      continue;
    }
    if (Array.isArray(m.content) && m.content.some(isMedia)) {
      const at = `messages[${messages.indexOf(raw)}].content`;
      out.push({ role: "user", content: m.content.map((p, i) => openaiToAnthropicPart(p, `${at}[${i}]`)) });
      continue;
    }
    const native = Array.isArray(m.content)
      ? m.content.filter((p) => isPlainObject(p) && p.type === "tool_result")
      : [];
    const text = textOf(m.content);
    if (native.length) out.push({ role: "user", content: text ? [...native, { type: "text", text }] : native });
    else if (text) out.push({ role: "user", content: text });
  }
  return { system: system.join("\n\n"), messages: out };
}

function anthropicTool(tool: unknown): unknown {
  if (!isPlainObject(tool) || !isPlainObject(tool.function)) return tool; // native entries pass through
  const fn = tool.function;
  return {
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    input_schema: fn.parameters ?? { type: "object", properties: {} },
  };
}

function anthropicToolChoice(choice: unknown): unknown {
  if (choice === "required" || choice === "any") return { type: "any" };
  if (choice === "none") return { type: "none" };
  if (!isPlainObject(choice)) return undefined;
  if (isPlainObject(choice.function) && typeof choice.function.name === "string")
    return { type: "tool", name: choice.function.name };
  if (choice.type === "any" || choice.type === "none" || (choice.type === "tool" && typeof choice.name === "string"))
    return { ...choice };
  return undefined;
}

/** A tool call whose object arguments are sent as the JSON string OpenAI takes; any other entry as it is. */
const stringArgs = (c: unknown): unknown =>
  isPlainObject(c) && isPlainObject(c.function) && typeof c.function.arguments !== "string"
    ? { ...c, function: { ...c.function, arguments: JSON.stringify(c.function.arguments ?? {}) } }
    : c;

/** OpenAI messages as sent: `system` replaces any system/developer message; object arguments become strings. */
function openAIMessages(messages: unknown[], system: string | undefined, fallback: string | undefined): unknown[] {
  // neutral content parts in user messages are sent in OpenAI's shape
  const chat = messages.some((m) => isPlainObject(m) && Array.isArray(m.content) && m.content.some(isNeutral))
    ? historyParts(messages, openaiPart, "messages")
    : messages;
  const kept = system === undefined ? chat : chat.filter((m) => !isSystem(m));
  const out = kept.map((m) =>
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
    throw new ConfigError(
      "messages",
      `toolnexus: translate needs messages as an array of chat messages, got ${shown(req?.messages)}`,
    );
  // the request is in OpenAI chat terms, converted for Anthropic only: any other wire would be sent it unconverted
  if (wire.style !== "openai" && wire.style !== "anthropic")
    throw new ConfigError(
      "style",
      `toolnexus: translate speaks the "openai" and "anthropic" styles, not ${shown(wire.style)} — use a client of one of those`,
    );
  const maxTokens = typeof req.maxTokens === "number" && req.maxTokens > 0 ? req.maxTokens : undefined;
  const anthropic = wire.style === "anthropic";
  const toolkit = req.toolkit;
  const declared = Array.isArray(toolkit)
    ? (anthropic ? toAnthropic : toOpenAI)(toolkit as readonly Tool[])
    : wire.declare(toolkit as Toolkit | undefined);
  const extra = req.tools ?? [];
  const tools = [...declared, ...(anthropic ? extra.map(anthropicTool) : extra)];
  const converted = anthropic ? openAIMessagesToAnthropic(req.messages) : undefined;
  const body = wire.body({
    model,
    system: converted ? (req.system ?? (converted.system || systemPrompt || "")) : "",
    messages: converted ? converted.messages : openAIMessages(req.messages, req.system, systemPrompt),
    tools,
    stream: false,
  });
  delete body.tool_choice; // the wire asks for "auto" whenever there are tools; translate sends only the caller's choice
  const toolChoice = anthropic ? anthropicToolChoice(req.toolChoice) : req.toolChoice;
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (maxTokens) body.max_tokens = maxTokens;
  return body;
}

function finish(reason: string, hasCalls: boolean): string {
  if (hasCalls) return "tool_calls";
  if (reason === "length" || reason === "max_tokens") return "length";
  if (reason === "content_filter" || reason === "refusal") return "content_filter";
  return "stop";
}

/**
 * Reads a provider's JSON reply with the wire that speaks it (the loop's own reading: a reply carrying an
 * `error`, or no message, is a StreamError whose text is redacted). `model` is the configured model; `raw`
 * keeps the reply as it came. OpenAI extras the loop has no use for are read here: a refusal (its text,
 * and `content_filter`) and the legacy single `function_call`.
 */
export function translateResponse(wire: Wire, model: string, json: unknown): TranslateResult {
  const turn = wire.parse(json);
  // an empty arguments string is read as {} by the wire, so it is sent on as "{}"
  const toolCalls = turn.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.raw || "{}" }));
  let text = turn.text;
  let reason = turn.finishReason ?? "";
  if (wire.style === "openai") {
    const msg = turn.message as Msg;
    if (isPlainObject(msg.function_call)) {
      const { name, arguments: args } = msg.function_call;
      const arguments_ = typeof args === "string" ? args : JSON.stringify(args ?? {});
      toolCalls.push({ id: `call_${str(name)}`, name: str(name), arguments: arguments_ });
    }
    if (typeof msg.refusal === "string" && msg.refusal !== "") {
      text ||= msg.refusal;
      if (reason === "stop") reason = "refusal";
    }
  }
  return { text, toolCalls, finishReason: finish(reason, toolCalls.length > 0), usage: turn.usage, model, raw: json };
}
