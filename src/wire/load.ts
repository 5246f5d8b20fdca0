import type { Style, Wire } from "./types";

/**
 * The wire for a style, loaded on first use: a page bundles only the provider format it speaks. The OpenAI
 * wire is part of the run tier (loop/engine.ts), so an OpenAI client's first run loads one chunk, not two.
 */
export function loadWire(style: Style): Promise<Wire> {
  return style === "openai" ? import("../loop/engine").then((m) => m.openaiWire) : import("./anthropic").then((m) => m.anthropicWire);
}
