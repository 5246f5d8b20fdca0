// Relay tools: declared to the model, executed by the host. The tool suspends with
// kind "tool_call"; the host runs the call and answers with `relayAnswer(id, results)` or `answerOutput(id, output)`.
import { pending } from "../answer";
import { InvalidAnswerError } from "../errors";
import { toolSchema, type StandardSchemaV1 } from "./schema/input-schema";
import { makeTool, requireToolName } from "./tool";
import type { JSONSchema, Tool } from "../types";
import { readRelayAnswer } from "./relay-answer";

const relayDefaultSchema = (): JSONSchema => ({ type: "object", properties: {} });

/** A tool the host executes (`source: "relay"`). Default schema: an object accepting any arguments. */
/* @__NO_SIDE_EFFECTS__ */
export function relayTool(name: string, description: string, inputSchema?: JSONSchema | StandardSchemaV1): Tool {
  requireToolName("relayTool", { name, description });
  return makeTool({
    name,
    description,
    source: "relay",
    schema: toolSchema(inputSchema, name, relayDefaultSchema),
    // a malformed answer is the host's bug: it must reach the host, never be dressed up as a tool result
    rethrow: (error) => error instanceof InvalidAnswerError,
    async run(args, ctx) {
      const id = ctx?.callId ?? "";
      if (!ctx?.answer) {
        return pending({
          kind: "tool_call",
          prompt: `relay tool call ${name} to the caller for execution`,
          data: { calls: [{ id, name, input: args, arguments: JSON.stringify(args) }] },
        });
      }
      return readRelayAnswer(ctx.answer, [{ id, name }]).get(id)!;
    },
  });
}
