// Deno (or Deno Deploy): an HTTP handler that streams runs to the caller and resumes halted runs
// from Deno KV. POST /chat { prompt } and POST /answer { runId, answer } both answer with
// text/event-stream (read it in a page with readEventStream).
//   deno run --unstable-kv --allow-net --allow-read --allow-write serve.ts runs.db
import {
  createInProcessClient,
  defineTool,
  denoKvStorage,
  eventStreamResponse,
  parseAnswer,
  pending,
} from "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";
import type { Answer, GenerateRequest } from "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";

const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx?.answer ? `31 °C and humid in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: `Forecast: ${last.content}` }
    : { toolCalls: [{ name: "weather", arguments: {} }] };
}

const kv = await Deno.openKv(Deno.args[0]); // no path: Deno's default (on Deploy: the project's KV)
const client = createInProcessClient({ model: "demo", generate, storage: denoKvStorage({ kv }) });
const toolkit = [weather];

const onListen = ({ port }: { port: number }) => console.log(`listening on http://127.0.0.1:${port}/`);
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.args[1] ?? 8000), onListen }, async (request: Request) => {
  const body = await request.json();
  if (new URL(request.url).pathname === "/answer") {
    let answer: Answer;
    try {
      answer = parseAnswer(body.answer); // untrusted JSON → Answer, or InvalidAnswerError naming the field
    } catch (error) {
      return Response.json({ error: (error as Error).message }, { status: 400 });
    }
    // an unknown or already used runId arrives as an `error` event, which readEventStream throws
    return eventStreamResponse(client.resumeStream(String(body.runId), answer, { toolkit }));
  }
  return eventStreamResponse(client.stream(String(body.prompt), { toolkit }));
});
