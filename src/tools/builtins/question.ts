// What the `question` builtin does (declared in builtins/index.ts): suspends with kind
// "question"; re-executed with the answer, it hands the answer's data back to the model verbatim.
import { pending } from "../../pending";
import type { QuestionItem, ToolResult } from "../../types";
import type { ToolContext } from "../types";

/** Each question on its own line, `" (options: a, b)"` appended when it has options; headers are not shown. */
export function renderQuestions(questions: readonly QuestionItem[]): string {
  return questions
    .map((q) => (q.options?.length ? `${q.question} (options: ${q.options.join(", ")})` : q.question))
    .join("\n");
}

/** Runs with checked arguments. */
export function askQuestions(args: Record<string, unknown>, ctx: ToolContext): ToolResult {
  if (ctx.answer) return { output: JSON.stringify(ctx.answer.data ?? {}), isError: false };
  const questions = args.questions as QuestionItem[];
  return pending({ kind: "question", prompt: renderQuestions(questions), data: { questions } });
}
