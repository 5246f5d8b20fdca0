import type { Style, Wire } from "./types";

/** The wire for a style, loaded on first use: a page downloads only the provider format it speaks. */
export function loadWire(style: Style): Promise<Wire> {
  return style === "openai"
    ? import("./openai").then((m) => m.openaiWire)
    : import("./anthropic").then((m) => m.anthropicWire);
}
