// The `todowrite` builtin (contract §1.6): the model keeps a visible task list; no I/O.
import { toolSchema } from "../schema";
import { builtinFailure, makeTool } from "../tool";
import type { JSONSchema, Tool } from "../types";

interface Todo {
  id: string;
  text: string;
  completed: boolean;
}

const todoSchema = (): JSONSchema => ({
  type: "object",
  properties: {
    todos: {
      type: "array",
      description: "The whole task list (it replaces the previous one)",
      items: {
        type: "object",
        properties: {
          id: { type: "string", description: "A stable id for the task" },
          text: { type: "string", description: "What the task is" },
          completed: { type: "boolean", description: "Whether the task is done" },
        },
        required: ["id", "text", "completed"],
      },
    },
  },
  required: ["todos"],
  additionalProperties: false,
});

/** `[x] text` / `[ ] text` lines, or `(no todos)`. */
export function renderTodos(todos: readonly Todo[]): string {
  return todos.length ? todos.map((t) => `${t.completed ? "[x]" : "[ ]"} ${t.text}`).join("\n") : "(no todos)";
}

/* @__NO_SIDE_EFFECTS__ */
export function todowriteTool(): Tool {
  return makeTool({
    name: "todowrite",
    description: "Write the current task list to plan and track multi-step work. Send the whole list each time, marking finished tasks completed.",
    source: "builtin",
    schema: toolSchema(todoSchema(), "todowrite"),
    failure: builtinFailure("todowrite"),
    run(args) {
      const todos = args.todos as Todo[];
      return { output: renderTodos(todos), isError: false, metadata: { todos } };
    },
  });
}
