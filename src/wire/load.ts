import type { Style, Wire } from "./types";

/** The wire for a style, loaded on first use: a page downloads only the provider format it speaks. */
export function loadWire(style: Style): Promise<Wire> {
  switch (style) {
    case "openai":
      return import("./openai").then((m) => m.openaiWire);
    case "openai-responses":
      return import("./openai-responses").then((m) => m.openaiResponsesWire);
    case "gemini":
      return import("./gemini").then((m) => m.geminiWire);
    default:
      return import("./anthropic").then((m) => m.anthropicWire);
  }
}
