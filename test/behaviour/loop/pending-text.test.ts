// What the docs say of a halted run's `text` (guide/suspensions.md): it is the prompt of the first open
// Request, in tool-call order, so a host that prints `result.text` shows the question.
import { describe, expect, it } from "vitest";
import { createInProcessClient, defineTool, pending, type GenerateRequest } from "toolnexus";

const asking = (name: string, prompt: string) =>
  defineTool({
    name,
    description: prompt,
    execute: async (_args, ctx) => ctx.answer?.id ?? pending({ kind: "input", prompt }),
  });

describe("a pending result's text", () => {
  it("is the prompt of the first open request, run and streamed", async () => {
    const generate = (_req: GenerateRequest) => ({
      toolCalls: [
        { name: "city", arguments: {} },
        { name: "date", arguments: {} },
      ],
    });
    const client = createInProcessClient({ model: "demo", generate });
    const toolkit = [asking("city", "Which city?"), asking("date", "Which day?")];
    const result = await client.run("Plan it", { toolkit });
    expect(result.status).toBe("pending");
    expect(result.text).toBe("Which city?");
    let done: unknown;
    for await (const event of client.stream("Plan it", { toolkit })) if (event.type === "done") done = event.result;
    expect(done).toMatchObject({ status: "pending", text: "Which city?" });
  });
});
