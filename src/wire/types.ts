// The seam between the loop (provider-agnostic) and a provider's wire format.
// Messages stay in the provider's own shape from start to end, so a stored transcript can be
// sent back as it is; the loop only sees the normalised `Turn` and `ToolCall`s.
import type { ContentPart, JSONSchema, StreamEvent, Style, ToolResult, Usage } from "../types";
import type { Toolkit } from "../tools/types";

export type { Style } from "../types";

/** What a stream reader reports as it reads: text, reasoning and tool-argument deltas. */
export type WireDelta = Extract<StreamEvent, { type: "text" | "reasoning" | "tool_input" }>;

export interface ToolCall {
  /** The provider's call id (OpenAI `tool_calls[].id`, Anthropic `tool_use.id`). */
  id: string;
  name: string;
  /** Parsed arguments; `{}` when they could not be parsed (see `argsError`). */
  args: Record<string, unknown>;
  /** The arguments exactly as the model sent them (a JSON string). */
  raw: string;
  /** Set when `raw` is not a JSON object: the tool must not run, the model gets this as an error result. */
  argsError?: string;
}

/** One assistant turn, read from a response or an assembled stream. */
export interface Turn {
  /** The assistant message to append to the transcript, in the provider's own shape. */
  message: unknown;
  /** The assistant's text (OpenAI `content`, Anthropic joined `text` blocks); `""` when none. */
  text: string;
  /** Tool calls in the order the model made them. */
  calls: ToolCall[];
  /** The reasoning a non-streamed reply carried (Anthropic thinking, OpenAI-compatible `reasoning_content`). */
  reasoning?: string;
  usage: Usage;
  /** The provider's stop/finish reason, verbatim, when it sent one. */
  finishReason?: string;
}

export interface BodyInput {
  model: string;
  /** The system prompt (Anthropic sends it as `system`; OpenAI already has it in `messages`). */
  system: string;
  messages: unknown[];
  /** Provider-native tool declarations; empty ⇒ the body carries no `tools`/`tool_choice` at all. */
  tools: unknown[];
  stream: boolean;
  /** The JSON Schema the final answer must follow (the provider's structured-output mode). */
  output?: JSONSchema | undefined;
  /** Holds the answer to `output` where the provider has such a mode (OpenAI's `strict: true`). */
  strict?: boolean;
}

export interface ToolOutcome {
  call: ToolCall;
  result: ToolResult;
}

export interface Wire {
  readonly style: Style;
  /**
   * The endpoint for a base URL (OpenAI `/chat/completions`, Anthropic `/v1/messages`); Gemini's path also
   * names the model and whether the reply streams (the loop always passes both).
   */
  url(baseUrl: string, model?: string, stream?: boolean): string;
  /** Auth and protocol headers; no auth header when `apiKey` is undefined. */
  headers(apiKey: string | undefined): Record<string, string>;
  /** The messages a new run starts from (system handling per provider), ending with the user turn. */
  start(system: string, history: readonly unknown[], prompt: string | readonly ContentPart[]): unknown[];
  body(input: BodyInput): Record<string, unknown>;
  declare(toolkit: Toolkit | undefined): unknown[];
  /** Reads a non-streaming JSON response. Throws `StreamError` when it is not a usable response. */
  parse(json: unknown): Turn;
  /**
   * Reads an SSE response body to the end, calling `onDelta` for each text, reasoning and tool-argument
   * delta, and assembles the turn.
   * Throws `StreamError` when the stream ends before the provider's end marker (so no tool runs on
   * half-received arguments) or the body is not an event stream.
   */
  readStream(body: ReadableStream<Uint8Array>, onDelta: (delta: WireDelta) => void): Promise<Turn>;
  /** The transcript messages that carry one assistant turn's tool results, in call order. */
  results(outcomes: readonly ToolOutcome[]): unknown[];
  /** The tool calls an assistant message (in this provider's shape) makes, in order: what a stored turn is checked against. */
  callsOf(message: unknown): { id: string; name: string }[];
  /** A copy of an assistant message whose tool calls carry `ids` (in order), for calls that came without a usable id. */
  withCallIds(message: unknown, ids: readonly string[]): unknown;
}
