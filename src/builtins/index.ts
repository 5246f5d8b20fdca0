// The builtins that need nothing but `fetch`, in their fixed order: webfetch, question, todowrite.
import type { FetchFn } from "../http-tool";
import type { Tool } from "../types";

export const BUILTIN_NAMES = ["webfetch", "question", "todowrite"] as const;
export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/** `false` turns every builtin off; an object turns single ones off (`{ question: false }`). Default: all on. */
export type BuiltinsOption = boolean | Partial<Record<BuiltinName, boolean>>;

/** The enabled builtins, in the fixed order, each loaded on first use. `fetch` is used by `webfetch` only. */
export async function builtinTools(option: BuiltinsOption | undefined, fetchFn?: FetchFn): Promise<Tool[]> {
  if (option === false) return [];
  const wanted = typeof option === "object" && option !== null ? option : {};
  for (const key of Object.keys(wanted)) {
    if (!(BUILTIN_NAMES as readonly string[]).includes(key)) {
      console.warn(`[toolnexus] unknown builtin "${key}" in the builtins option — known: ${BUILTIN_NAMES.join(", ")}`);
    }
  }
  const make: Record<BuiltinName, () => Promise<Tool>> = {
    webfetch: () => import("./webfetch").then((m) => m.webfetchTool(fetchFn)),
    question: () => import("./question").then((m) => m.questionTool()),
    todowrite: () => import("./todowrite").then((m) => m.todowriteTool()),
  };
  return Promise.all(BUILTIN_NAMES.filter((name) => wanted[name] !== false).map((name) => make[name]()));
}
