// What both `task` tools — a level's (task.ts) and the runtime's (runtime-task.ts) — declare to the model:
// the name, a description listing the team, and the input `{ agent, prompt }`.
import type { Tool } from "../tools/types";

/** The declared part of a `task` tool, its team listed as `name: does` entries. */
export function taskDeclaration(
  entries: readonly string[],
): Pick<Tool, "name" | "description" | "inputSchema" | "source"> {
  return {
    name: "task",
    description: `Delegate a subtask to an isolated subagent. Available agents — ${entries.join("; ")}`,
    inputSchema: {
      type: "object",
      properties: { agent: { type: "string" }, prompt: { type: "string" } },
      required: ["agent", "prompt"],
    },
    source: "agent",
  };
}
