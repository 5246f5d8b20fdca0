// Approvals: a tool with `needsApproval` waits for a yes before it runs. Here the run halts durably
// on the approval, and a resume approves it; answerDeclined(id) instead would never run the tool.
import { answerOutput, createInProcessClient, defineTool, jsonSchema } from "toolnexus";
import type { GenerateRequest } from "toolnexus";

const deploy = defineTool({
  name: "deploy",
  description: "Deploys a version to an environment",
  inputSchema: jsonSchema<{ version: string; env: "staging" | "production" }>({
    type: "object",
    properties: { version: { type: "string" }, env: { enum: ["staging", "production"] } },
    required: ["version", "env"],
  }), // or a valibot / zod schema: the arguments are typed from it either way
  needsApproval: ({ env }) => env === "production", // or `true`: every call waits
  execute: ({ version, env }) => `Deployed ${version} to ${env}.`,
});

const generate = ({ messages }: GenerateRequest) => {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: last.content }
    : { toolCalls: [{ name: "deploy", arguments: { version: "v42", env: "production" } }] };
};

const client = createInProcessClient({ model: "demo", generate });
const halted = await client.run("Ship v42 to production", { toolkit: [deploy] });
if (halted.status !== "pending") throw new Error(`expected the run to wait for an approval, got ${halted.status}`);
console.log(halted.pending.kind, halted.pending.prompt, JSON.stringify(halted.pending.data));

const done = await client.resume(halted.runId, answerOutput(halted.pending.id, "approved"), { toolkit: [deploy] });
console.log(done.status, done.text);
