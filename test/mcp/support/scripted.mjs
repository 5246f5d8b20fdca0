// A scripted model for the MCP tests: it calls the given tools on its first turn, then answers with what the
// tool results said, so a run's text shows what the model saw.
import { createInProcessClient } from "../../../dist/index.js";

export function scriptedClient({ calls, ...options }) {
  return createInProcessClient({
    model: "scripted",
    generate(req) {
      const results = req.messages.filter((m) => m.role === "tool");
      if (results.length > 0) return { content: results.map((m) => m.content).join("\n---\n") };
      return { toolCalls: calls.map((c, i) => ({ id: `call_${i + 1}`, name: c.name, arguments: c.args ?? {} })) };
    },
    ...options,
  });
}

/** What a test looks at in a RunResult, as JSON. */
export const summary = (result) => ({
  status: result.status,
  text: result.text,
  runId: result.runId,
  pending: result.pending,
  requests: result.requests,
  toolCalls: result.toolCalls?.map((c) => ({ name: c.name, output: c.output, isError: c.isError })),
});
