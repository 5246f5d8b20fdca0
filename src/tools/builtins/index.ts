// The builtins that need nothing but `fetch`, in their fixed order: webfetch, question, todowrite. What the
// model is told about them (name, description, input schema) is here; what they do is in their own files.
import type { FetchFn } from "../http-tool";
import { toolSchema, type ToolSchema } from "../schema/input-schema";
import { makeTool, type ToolSpec } from "../tool";
import type { JSONSchema } from "../../types";
import type { Tool } from "../types";
import { askQuestions } from "./question";
import { writeTodos } from "./todowrite";
import { fetchPage } from "./webfetch";

export const BUILTIN_NAMES = ["webfetch", "question", "todowrite"] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/** `false` turns every builtin off; an object turns single ones off (`{ question: false }`). Default: all on. */
export type BuiltinsOption = boolean | Partial<Record<BuiltinName, boolean>>;

/** webfetch's formats, declared to the model here and checked against in webfetch.ts. */
const WEBFETCH_FORMATS = ["text", "markdown", "html"];

/** A property of a builtin's input schema. */
const field = (type: string, description: string, more?: Record<string, unknown>) => ({ type, description, ...more });

/** An object schema that refuses properties it does not list. */
const closed = (properties: Record<string, unknown>, required: string[]): JSONSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** Arguments that are one required list, `key`, of objects with `properties` (of which `required` must be set). */
const listOf = (key: string, description: string, properties: Record<string, unknown>, required: string[]) =>
  closed({ [key]: field("array", description, { items: { type: "object", properties, required } }) }, [key]);

const declare: Record<BuiltinName, (fetchFn?: FetchFn) => Tool> = {
  webfetch: (fetchFn) =>
    builtin(
      "webfetch",
      "Fetch a web page or file over HTTP(S) and return its content as text, markdown or raw HTML.",
      closed(
        {
          url: field("string", "The http(s) URL to fetch"),
          format: field("string", "How to return the page: text, markdown (default) or html", {
            enum: [...WEBFETCH_FORMATS],
          }),
          timeout: field("number", "Seconds to wait for the page (default 30)"),
        },
        ["url"],
      ),
      (args, ctx) => fetchPage(args, ctx, { fetch: fetchFn, formats: WEBFETCH_FORMATS }),
      // webfetch checks its own arguments so its messages read "webfetch: url is required"
      false,
    ),
  question: () =>
    builtin(
      "question",
      "Ask the user one or more questions and wait for the answers. Use it when you need a decision or information only the user has. Never use it to ask for passwords or other credentials.",
      listOf(
        "questions",
        "The questions to ask the user, in order",
        {
          question: field("string", "The question, as the user should read it"),
          header: field("string", "A short label for the question"),
          options: field("array", "Answers to choose from, if any", { items: { type: "string" } }),
          multiple: field("boolean", "Whether more than one option may be chosen"),
        },
        ["question"],
      ),
      askQuestions,
    ),
  todowrite: () =>
    builtin(
      "todowrite",
      "Write the current task list to plan and track multi-step work. Send the whole list each time, marking finished tasks completed.",
      listOf(
        "todos",
        "The whole task list (it replaces the previous one)",
        {
          id: field("string", "A stable id for the task"),
          text: field("string", "What the task is"),
          completed: field("boolean", "Whether the task is done"),
        },
        ["id", "text", "completed"],
      ),
      writeTodos,
    ),
};

/** A builtin: its arguments checked as any tool's (unless `checkArgs` is false), a throw reported as `"<name>: <message>"`. */
function builtin(
  name: BuiltinName,
  description: string,
  json: JSONSchema,
  run: ToolSpec["run"],
  checkArgs = true,
): Tool {
  const schema: ToolSchema = checkArgs ? toolSchema(json, name) : { json, check: (value) => ({ ok: true, value }) };
  return makeTool({ name, description, source: "builtin", schema, run });
}

/** The enabled builtins, in the fixed order. `fetch` is used by `webfetch` only. */
export function builtinTools(option: BuiltinsOption | undefined, fetchFn?: FetchFn): Tool[] {
  if (option === false) return [];
  const wanted = typeof option === "object" && option !== null ? option : {};
  for (const key of Object.keys(wanted)) {
    if (!(BUILTIN_NAMES as readonly string[]).includes(key)) {
      console.warn(`[toolnexus] unknown builtin "${key}" in the builtins option — known: ${BUILTIN_NAMES.join(", ")}`);
    }
  }
  return BUILTIN_NAMES.filter((name) => wanted[name] !== false).map((name) => declare[name](fetchFn));
}
