// The tool and stand-in model the other Node examples share (quickstart.ts shows them inline).
import { defineTool, pending } from "toolnexus";
import type { GenerateRequest } from "toolnexus";

export let executions = 0; // how many times the tool really ran with an answer

/** Suspends with an `input` Request until it is re-run with the user's answer. */
export const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) => {
    if (!ctx?.answer) return pending({ kind: "input", prompt: "Which city?" });
    executions++;
    return `31 °C and humid in ${ctx.answer.data?.output}`;
  },
});

/** A scripted model: call the tool, then report what it said. */
export function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: `Forecast: ${last.content}` }
    : { toolCalls: [{ name: "weather", arguments: {} }] };
}
