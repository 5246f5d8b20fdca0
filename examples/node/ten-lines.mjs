import { answerOutput, createInProcessClient, defineTool, pending } from "toolnexus";

const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx.answer ? `Sunny in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});
// a stand-in model; a real one: createClient({ baseUrl, style, model, apiKey })
const generate = ({ messages }) => {
  const last = messages.at(-1);
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "weather", arguments: {} }] };
};
const client = createInProcessClient({ model: "demo", generate });
const halted = await client.run("What's the weather?", { toolkit: [weather] });
if (halted.status !== "pending") throw new Error("expected the tool to ask");
console.log(halted.status, halted.pending.prompt); // pending Which city?
const done = await client.resume(halted.runId, answerOutput(halted.pending.id, "Chennai"), { toolkit: [weather] });
console.log(done.status, done.text); // done Sunny in Chennai
