// The translate cases' set-up, written once: a toolkit whose one tool counts its executions (translate must
// never execute), a function declaration, and a multi-turn OpenAI transcript.
import type { Tool, Toolkit } from "toolnexus";
import { toolCtx } from "./tool-context";

export const schema = { type: "object" as const, properties: { q: { type: "string" } }, required: ["q"] };

/** A toolkit with one tool, `lookup`, that counts executions (translate must never execute). */
export function countingToolkit() {
  const state = { executed: 0 };
  const tool: Tool = {
    name: "lookup",
    description: "Look something up",
    inputSchema: schema,
    source: "native",
    execute: async () => (state.executed++, { output: "ran", isError: false }),
  };
  const toolkit: Toolkit = {
    tools: () => [tool],
    get: (n) => (n === tool.name ? tool : undefined),
    execute: (_n, a, c) => tool.execute(a, toolCtx(c)),
    toOpenAI: () => [
      { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } },
    ],
    toAnthropic: () => [{ name: tool.name, description: tool.description, input_schema: tool.inputSchema }],
    toGemini: () => [
      { functionDeclarations: [{ name: tool.name, description: tool.description, parameters: tool.inputSchema }] },
    ],
  };
  return { toolkit, tool, state };
}

export const weatherFn = {
  type: "function",
  function: {
    name: "weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

/** A multi-turn OpenAI transcript with parallel calls, mixed argument forms and merged tool results. */
export const transcript = [
  { role: "system", content: "Be brief." },
  {
    role: "developer",
    content: [
      { type: "text", text: "Use " },
      { type: "text", text: "tools." },
    ],
  },
  { role: "user", content: "Weather in Paris and Rome? Also look up tea." },
  {
    role: "assistant",
    content: "Checking.",
    tool_calls: [
      { id: "c1", type: "function", function: { name: "weather", arguments: '{"city": "Paris"}' } },
      { id: "c2", type: "function", function: { name: "weather", arguments: { city: "Rome" } } },
      { id: "c3", type: "function", function: { name: "lookup", arguments: "{not json" } },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "18C" },
  { role: "tool", tool_call_id: "c2", content: [{ type: "text", text: "21C" }] },
  { role: "tool", tool_call_id: "c3", content: "tea is a drink" },
  { role: "assistant", content: "" },
  { role: "user", content: [{ type: "text", text: "Thanks" }] },
];
