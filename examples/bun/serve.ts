// Bun: an HTTP endpoint (Bun.serve) that streams runs to the caller and resumes halted ones.
// POST /chat { prompt } and POST /answer { runId, answer } both answer with text/event-stream
// (read it in a page with readEventStream). The runs live in this process (memoryStorage): a second
// answer to the same Request is refused, so the tool runs once.
//   bun serve.ts            (PORT=0 picks a free port)
import { createInProcessClient, defineTool, eventStreamResponse, memoryStorage, parseAnswer, pending } from "toolnexus";
import type { Answer, GenerateRequest } from "toolnexus";

const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx.answer ? `31 °C and humid in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});
// A stand-in model (call the tool, then report its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: `Forecast: ${last.content}` }
    : { toolCalls: [{ name: "weather", arguments: {} }] };
}

const client = createInProcessClient({ model: "demo", generate, storage: memoryStorage() });
const toolkit = [weather];

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  async fetch(request) {
    const body = await request.json();
    if (new URL(request.url).pathname === "/answer") {
      let answer: Answer;
      try {
        answer = parseAnswer(body.answer); // untrusted JSON → Answer, or InvalidAnswerError naming the field
      } catch (error) {
        return Response.json({ error: (error as Error).message }, { status: 400 });
      }
      // an unknown or already used runId arrives as an error, which readEventStream throws
      return eventStreamResponse(client.resumeStream(String(body.runId), answer, { toolkit }));
    }
    return eventStreamResponse(client.stream(String(body.prompt), { toolkit }));
  },
});
console.log(`listening on ${server.url}`);
