// The wire for a style: the provider format a client speaks, chosen by its `style` option.
import { anthropicWire } from "./anthropic";
import { geminiWire } from "./gemini";
import { openaiWire } from "./openai";
import { openaiResponsesWire } from "./openai-responses";
import type { Style, Wire } from "./types";

/** The wire for a style (an unknown style was refused with the client's options). */
export function wireOf(style: Style): Wire {
  switch (style) {
    case "openai":
      return openaiWire;
    case "openai-responses":
      return openaiResponsesWire;
    case "gemini":
      return geminiWire;
    default:
      return anthropicWire;
  }
}
