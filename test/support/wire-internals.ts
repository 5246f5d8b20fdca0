// The provider wires and the push parser are internal (not exported by the package), so their tests
// reach them here, relatively from the sources. This works in every runtime, Deno included (where the
// rest of the suite runs against dist/toolnexus.js): errors thrown from here are the sources' classes,
// so tests match them by `name`/`code`, never with `instanceof`.
export { openaiWire } from "../../src/wire/openai";
export { anthropicWire } from "../../src/wire/anthropic";
export { openaiResponsesWire } from "../../src/wire/openai-responses";
export { geminiWire } from "../../src/wire/gemini";
export { createSSEParser } from "../../src/_internal/sse";
export type { ToolCall, ToolOutcome, Turn, WireDelta } from "../../src/wire/types";
