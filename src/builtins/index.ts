// The builtins that need nothing but `fetch`, in their fixed order: webfetch, question, todowrite.
import type { FetchFn } from "../http-tool";
import type { Tool } from "../types";
import { questionTool } from "./question";
import { todowriteTool } from "./todowrite";
import { webfetchTool } from "./webfetch";

export const BUILTIN_NAMES = ["webfetch", "question", "todowrite"] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/** `false` turns every builtin off; an object turns single ones off (`{ question: false }`). Default: all on. */
export type BuiltinsOption = boolean | Partial<Record<BuiltinName, boolean>>;

/** The enabled builtins, in the fixed order. `fetch` is used by `webfetch` only. */
export function builtinTools(option: BuiltinsOption | undefined, fetchFn?: FetchFn): Tool[] {
  if (option === false) return [];
  const wanted = typeof option === "object" && option !== null ? option : {};
  for (const key of Object.keys(wanted)) {
    if (!(BUILTIN_NAMES as readonly string[]).includes(key)) {
      console.warn(`[toolnexus] unknown builtin "${key}" in the builtins option — known: ${BUILTIN_NAMES.join(", ")}`);
    }
  }
  const make: Record<BuiltinName, () => Tool> = { webfetch: () => webfetchTool(fetchFn), question: questionTool, todowrite: todowriteTool };
  return BUILTIN_NAMES.filter((name) => wanted[name] !== false).map((name) => make[name]());
}
