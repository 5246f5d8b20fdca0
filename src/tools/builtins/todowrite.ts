// What the `todowrite` builtin does (declared in builtins/index.ts): the model keeps a
// visible task list; no I/O.
import type { ToolResult } from "../../types";

interface Todo {
  id: string;
  text: string;
  completed: boolean;
}

/** `[x] text` / `[ ] text` lines, or `(no todos)`. */
export function renderTodos(todos: readonly Todo[]): string {
  return todos.length ? todos.map((t) => `${t.completed ? "[x]" : "[ ]"} ${t.text}`).join("\n") : "(no todos)";
}

/** Runs with checked arguments. */
export function writeTodos(args: Record<string, unknown>): ToolResult {
  const todos = args.todos as Todo[];
  return { output: renderTodos(todos), isError: false, metadata: { todos } };
}
