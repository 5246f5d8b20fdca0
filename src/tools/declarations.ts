// Tool declarations in each provider's shape: schema only, nothing executable.
import type { AnthropicToolDeclaration, GeminiToolDeclaration, OpenAIToolDeclaration, Tool } from "./types";

/** OpenAI chat-completions `tools`: `{ type: "function", function: { name, description, parameters } }`. */
export function toOpenAI(tools: readonly Tool[]): OpenAIToolDeclaration[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

/** Anthropic messages `tools`: `{ name, description, input_schema }`. */
export function toAnthropic(tools: readonly Tool[]): AnthropicToolDeclaration[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
}

/** Gemini `tools`: always one element holding every `functionDeclarations` entry (even when there are none). */
export function toGemini(tools: readonly Tool[]): GeminiToolDeclaration[] {
  return [{ functionDeclarations: toOpenAI(tools).map((d) => d.function) }];
}
