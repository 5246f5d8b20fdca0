// Relay tools: declared to the model, executed by the host. The tool suspends with
// kind "tool_call"; the host runs the call and answers with `relayAnswer(id, results)` or `answerOutput(id, output)`.
import { pending } from "../pending";
import { InvalidAnswerError } from "../errors";
import { toolSchema, type InferSchema, type ToolInputSchema } from "./schema/input-schema";
import { makeTool, requireToolName } from "./tool";
import type { JSONSchema } from "../types";
import type { NeedsApproval, Tool } from "./types";
import { readRelayAnswer } from "./relay-answer";

export interface RelayToolOptions<S extends ToolInputSchema = JSONSchema> {
  /** `true` or a predicate of the arguments: the call is approved before it is relayed to the host. */
  needsApproval?: NeedsApproval<InferSchema<S>>;
}

/** A tool the host executes (`source: "relay"`). Default schema: an object accepting any arguments. */
/* @__NO_SIDE_EFFECTS__ */
export function relayTool<S extends ToolInputSchema = JSONSchema>(
  name: string,
  description: string,
  inputSchema?: S,
  options: RelayToolOptions<S> = {},
): Tool {
  requireToolName("relayTool", { name, description });
  return makeTool({
    name,
    description,
    source: "relay",
    schema: toolSchema(inputSchema, name),
    needsApproval: options.needsApproval as NeedsApproval | undefined,
    // a malformed answer is the host's bug: it must reach the host, never be dressed up as a tool result
    rethrow: (error) => error instanceof InvalidAnswerError,
    async run(args, ctx) {
      const id = ctx.callId;
      if (!ctx.answer) {
        return pending({
          kind: "tool_call",
          prompt: `relay tool call ${name} to the caller for execution`,
          data: { calls: [{ id, name, input: args, arguments: JSON.stringify(args) }] },
        });
      }
      return readRelayAnswer(ctx.answer, [{ id, name }])[0]!;
    },
  });
}
