// A tool that asks the user once and, answered, replies — the suspending tool most tests need, written once.
// It counts what a test asserts: how often it ran (`runs()`) and how often it ran with an answer (`answered()`).
import { type BuiltinKind, defineTool, pending, type Tool, type ToolContext } from "toolnexus";

export interface AskingToolOptions {
  name: string;
  description?: string;
  kind?: Exclude<BuiltinKind, "tool_call">;
  prompt: string;
  /** The request's id (the SDK makes one when absent). */
  id?: string;
  expiresAt?: string;
  /** What the tool returns once answered; the answer's output as text by default. */
  reply?: (answer: NonNullable<ToolContext["answer"]>, args: Record<string, unknown>) => string;
}

export type AskingTool = Tool & { runs: () => number; answered: () => number };

export function askingTool(options: AskingToolOptions): AskingTool {
  const { name, kind = "input", prompt, id, expiresAt } = options;
  const reply = options.reply ?? ((answer) => String(answer.data?.output));
  let runs = 0;
  let answered = 0;
  const tool = defineTool({
    name,
    description: options.description ?? `asks: ${prompt}`,
    execute: (args, ctx) => {
      runs++;
      if (!ctx?.answer) return pending({ kind, prompt, ...(id ? { id } : {}), ...(expiresAt ? { expiresAt } : {}) });
      answered++;
      return reply(ctx.answer, args);
    },
  });
  return Object.assign(tool, { runs: () => runs, answered: () => answered });
}

/** `ask_city`: asks "Which city?" (request `id`), answered it says `city=<the answer>`. */
export const askCity = (id?: string): AskingTool =>
  askingTool({ name: "ask_city", prompt: "Which city?", id, reply: (answer) => `city=${String(answer.data?.output)}` });
