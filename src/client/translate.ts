// `translate` (contract §1.11): one provider call described in OpenAI chat terms, nothing executed.
// Pure: builds the provider body and reads the provider response; the client supplies the transport.
import { capErrorBody, StreamError } from "../errors";
import { redactErrorBody } from "../wire/http-error";
import { isPlainObject } from "../_internal/json";
import type { Tool, Toolkit, ToolkitLike, Usage } from "../types";

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
type Style = "openai" | "anthropic";

const SYSTEM_ROLES = new Set(["system", "developer"]);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const isSystem = (m: unknown): boolean => isPlainObject(m) && SYSTEM_ROLES.has(m.role as string);

/** Message content as text: a string as is, an array of parts by concatenating their `text`. */
function flatten(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => (typeof p === "string" ? p : isPlainObject(p) && typeof p.text === "string" ? p.text : ""))
    .join("");
}

/** Tool arguments as an object: a JSON object string parsed, an object accepted, anything else `{}`. */
function parseArgs(args: unknown): Record<string, unknown> {
  if (isPlainObject(args)) return args;
  if (typeof args !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(args || "{}");
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function declarations(style: Style, toolkit: TranslateRequest["toolkit"]): unknown[] {
  if (!toolkit) return [];
  if (!Array.isArray(toolkit))
    return style === "openai" ? (toolkit as Toolkit).toOpenAI() : (toolkit as Toolkit).toAnthropic();
  return (toolkit as readonly Tool[]).map((t) =>
    style === "openai"
      ? { type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }
      : { name: t.name, description: t.description, input_schema: t.inputSchema },
  );
}

function assistantToAnthropic(m: Msg, blocks: unknown[]): void {
  if (Array.isArray(m.content)) {
    for (const part of m.content) if (isPlainObject(part) && part.type === "tool_use") blocks.push(part);
  }
  const text = flatten(m.content);
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

/**
 * OpenAI chat messages in Anthropic terms: system/developer hoisted (joined `\n\n`), tool results as
 * `tool_result` blocks (consecutive ones merged into one user turn), assistant `tool_calls` as
 * `tool_use` blocks (string or object arguments; malformed ⇒ `{}`), empty turns dropped, everything
 * else a user turn with its text. No tool call and no tool result is ever dropped.
 */
export function openAIMessagesToAnthropic(messages: unknown[]): { system: string; messages: unknown[] } {
  const system: string[] = [];
  const out: Msg[] = [];
  let resultTurn: unknown[] | undefined; // the open user turn of tool results
  for (const raw of messages) {
    const m: Msg = typeof raw === "string" ? { role: "user", content: raw } : isPlainObject(raw) ? raw : {};
    const role = str(m.role);
    if (SYSTEM_ROLES.has(role)) {
      const text = flatten(m.content);
      if (text) system.push(text);
      continue;
    }
    if (role === "tool" || role === "function") {
      const block = {
        type: "tool_result",
        tool_use_id: str(m.tool_call_id) || (role === "function" ? `call_${str(m.name)}` : ""),
        content: flatten(m.content),
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
    const native = Array.isArray(m.content)
      ? m.content.filter((p) => isPlainObject(p) && p.type === "tool_result")
      : [];
    const text = flatten(m.content);
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

/** OpenAI messages as sent: `system` replaces any system/developer message; object arguments become strings. */
function openAIMessages(messages: unknown[], system: string | undefined, fallback: string | undefined): unknown[] {
  const kept = system === undefined ? messages : messages.filter((m) => !isSystem(m));
  const out = kept.map((m) => {
    if (
      !isPlainObject(m) ||
      !Array.isArray(m.tool_calls) ||
      m.tool_calls.every(
        (c) => !isPlainObject(c) || !isPlainObject(c.function) || typeof c.function.arguments === "string",
      )
    )
      return m;
    const tool_calls = m.tool_calls.map((c) =>
      isPlainObject(c) && isPlainObject(c.function) && typeof c.function.arguments !== "string"
        ? { ...c, function: { ...c.function, arguments: JSON.stringify(c.function.arguments ?? {}) } }
        : c,
    );
    return { ...m, tool_calls };
  });
  const prompt = system ?? (out.some(isSystem) ? "" : (fallback ?? ""));
  return prompt ? [{ role: "system", content: prompt }, ...out] : out;
}

/**
 * The provider body for a translate request. System precedence, both styles: `req.system` (replacing any
 * system/developer message), else the conversation's own system/developer messages, else `systemPrompt`.
 */
export function translateBody(
  style: Style,
  model: string,
  systemPrompt: string | undefined,
  req: TranslateRequest,
): Record<string, unknown> {
  if (!Array.isArray(req?.messages))
    throw new TypeError("toolnexus: translate needs `messages` as an array of chat messages");
  const maxTokens = typeof req.maxTokens === "number" && req.maxTokens > 0 ? req.maxTokens : undefined;
  if (style === "openai") {
    const tools = [...declarations(style, req.toolkit), ...(req.tools ?? [])];
    return {
      model,
      messages: openAIMessages(req.messages, req.system, systemPrompt),
      ...(tools.length ? { tools } : {}),
      ...(req.toolChoice !== undefined ? { tool_choice: req.toolChoice } : {}),
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    };
  }
  const converted = openAIMessagesToAnthropic(req.messages);
  const system = req.system ?? (converted.system || systemPrompt || "");
  const tools = [...declarations(style, req.toolkit), ...(req.tools ?? []).map(anthropicTool)];
  const toolChoice = anthropicToolChoice(req.toolChoice);
  return {
    model,
    max_tokens: maxTokens ?? 4096,
    ...(system ? { system } : {}),
    messages: converted.messages,
    ...(tools.length ? { tools } : {}),
    ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
  };
}

function finish(reason: string, hasCalls: boolean): string {
  if (hasCalls) return "tool_calls";
  if (reason === "length" || reason === "max_tokens") return "length";
  if (reason === "content_filter" || reason === "refusal") return "content_filter";
  return "stop";
}

function unusable(style: Style, json: unknown, what: string): StreamError {
  const err = isPlainObject(json) && isPlainObject(json.error) ? str(json.error.message) : "";
  const detail = err ? `: ${capErrorBody(redactErrorBody(err))}` : "";
  return new StreamError(
    `toolnexus: the ${style} response has no ${what}${detail} — check that baseUrl and style point at a ${style === "openai" ? "/chat/completions" : "/v1/messages"} endpoint`,
  );
}

function openAIResult(model: string, json: unknown): TranslateResult {
  const choice = isPlainObject(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) throw unusable("openai", json, "choices[0].message");
  const msg = choice.message;
  const toolCalls: TranslateResult["toolCalls"] = [];
  for (const call of Array.isArray(msg.tool_calls) ? msg.tool_calls : []) {
    if (!isPlainObject(call)) continue;
    const fn = isPlainObject(call.function) ? call.function : {};
    toolCalls.push({
      id: str(call.id),
      name: str(fn.name),
      arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
    });
  }
  if (isPlainObject(msg.function_call)) {
    const fc = msg.function_call;
    toolCalls.push({
      id: `call_${str(fc.name)}`,
      name: str(fc.name),
      arguments: typeof fc.arguments === "string" ? fc.arguments : JSON.stringify(fc.arguments ?? {}),
    });
  }
  const refused = typeof msg.refusal === "string" && msg.refusal !== "";
  const u = isPlainObject((json as Msg).usage) ? ((json as Msg).usage as Msg) : {};
  const promptTokens = num(u.prompt_tokens);
  const completionTokens = num(u.completion_tokens);
  return {
    text: flatten(msg.content) || (refused ? (msg.refusal as string) : ""),
    toolCalls,
    finishReason: finish(
      refused && choice.finish_reason === "stop" ? "refusal" : str(choice.finish_reason),
      toolCalls.length > 0,
    ),
    usage: { promptTokens, completionTokens, totalTokens: num(u.total_tokens) || promptTokens + completionTokens },
    model,
    raw: json,
  };
}

function anthropicResult(model: string, json: unknown): TranslateResult {
  if (!isPlainObject(json) || !Array.isArray(json.content)) throw unusable("anthropic", json, "content");
  let text = "";
  const toolCalls: TranslateResult["toolCalls"] = [];
  for (const block of json.content) {
    if (!isPlainObject(block)) continue;
    if (block.type === "text") text += str(block.text);
    else if (block.type === "tool_use")
      toolCalls.push({ id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input ?? {}) });
  }
  const u = isPlainObject(json.usage) ? json.usage : {};
  const promptTokens = num(u.input_tokens);
  const completionTokens = num(u.output_tokens);
  return {
    text,
    toolCalls,
    finishReason: finish(str(json.stop_reason), toolCalls.length > 0),
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    model,
    raw: json,
  };
}

/** Reads a provider's JSON response. `model` is the configured model; `raw` keeps the response as it came. */
export function translateResponse(style: Style, model: string, json: unknown): TranslateResult {
  return style === "openai" ? openAIResult(model, json) : anthropicResult(model, json);
}
