// The `question` builtin (contract §1.6): suspends with kind "question"; re-executed with the answer,
// it hands the answer's data back to the model verbatim.
import { pending } from "../answer";
import { toolSchema } from "../schema";
import { builtinFailure, makeTool } from "../tool";
import type { JSONSchema, Tool } from "../types";

interface Question {
  question: string;
  header?: string;
  options?: string[];
  multiple?: boolean;
}

const questionSchema = (): JSONSchema => ({
  type: "object",
  properties: {
    questions: {
      type: "array",
      description: "The questions to ask the user, in order",
      items: {
        type: "object",
        properties: {
          question: { type: "string", description: "The question, as the user should read it" },
          header: { type: "string", description: "A short label for the question" },
          options: { type: "array", items: { type: "string" }, description: "Answers to choose from, if any" },
          multiple: { type: "boolean", description: "Whether more than one option may be chosen" },
        },
        required: ["question"],
      },
    },
  },
  required: ["questions"],
  additionalProperties: false,
});

/** Each question on its own line, `" (options: a, b)"` appended when it has options; headers are not shown. */
export function renderQuestions(questions: readonly Question[]): string {
  return questions.map((q) => (q.options?.length ? `${q.question} (options: ${q.options.join(", ")})` : q.question)).join("\n");
}

/* @__NO_SIDE_EFFECTS__ */
export function questionTool(): Tool {
  return makeTool({
    name: "question",
    description:
      "Ask the user one or more questions and wait for the answers. Use it when you need a decision or information only the user has. Never use it to ask for passwords or other credentials.",
    source: "builtin",
    schema: toolSchema(questionSchema(), "question"),
    failure: builtinFailure("question"),
    run(args, ctx) {
      if (ctx?.answer) return { output: JSON.stringify(ctx.answer.data ?? {}), isError: false };
      const questions = args.questions as Question[];
      return pending({ kind: "question", prompt: renderQuestions(questions), data: { questions } });
    },
  });
}
