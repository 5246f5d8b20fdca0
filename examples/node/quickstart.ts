// Quickstart: a tool suspends, the run is saved to storage, and a second client resumes it.
import { answerOutput, createInProcessClient, defineTool, memoryStorage, pending } from "toolnexus";
import type { GenerateRequest } from "toolnexus";

// A tool that needs something only a person can give: it suspends until it gets an answer.
const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx?.answer ? `31 °C and humid in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});

// A stand-in model; a real one is createClient({ baseUrl, style: "openai", model, apiKey }).
const generate = ({ messages }: GenerateRequest) => {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: `Forecast: ${last.content}` }
    : { toolCalls: [{ name: "weather", arguments: {} }] };
};

const storage = memoryStorage(); // or kvStorage, durableObjectStorage, denoKvStorage, webStorage
const first = createInProcessClient({ model: "demo", generate, storage });
const halted = await first.run("What's the weather?", { toolkit: [weather] });
console.log(halted.status, halted.pending?.prompt); // pending Which city?

// Later — another request, another process — a second client resumes the saved run by its id.
const second = createInProcessClient({ model: "demo", generate, storage });
const done = await second.resume(halted.runId!, answerOutput(halted.pending!.id, "Chennai"), { toolkit: [weather] });
console.log(done.status, done.text); // done Forecast: 31 °C and humid in Chennai
