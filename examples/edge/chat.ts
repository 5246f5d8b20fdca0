// A Vercel Edge Function (any host running the Edge Runtime): POST { prompt } streams a run as
// text/event-stream (read it in a page with readEventStream); POST { runId, answer } resumes the halted
// run and streams the rest. Only web standards run here: no process, Buffer, require or eval.
// memoryStorage lives as long as this isolate, and a second answer to the same Request is refused.
// Across isolates, give the client an atomic storage every isolate can reach.
import { createInProcessClient, defineTool, eventStreamResponse, memoryStorage, parseAnswer, pending } from "toolnexus";
import type { Answer, GenerateRequest } from "toolnexus";

export const config = { runtime: "edge" };

const book = defineTool({
  name: "book_table",
  description: "Books a table once the user approves",
  execute: async (_args, ctx) =>
    ctx.answer
      ? "Booked: a table for 2 at 19:30."
      : pending({ kind: "approval", prompt: "Book a table for 2 at 19:30?" }),
});
// A stand-in model (call the tool, then repeat its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "book_table", arguments: {} }] };
}

const client = createInProcessClient({ model: "demo", generate, storage: memoryStorage() });
const toolkit = [book];

export default async function handler(request: Request): Promise<Response> {
  // JSON.parse of the text rather than request.json(): under the Edge Runtime emulator (`next dev`,
  // `vercel dev`, edge-runtime) request.json() builds objects of the host's realm, which parseAnswer refuses
  const body = JSON.parse(await request.text()) as { prompt?: string; runId?: string; answer?: unknown };
  if (!body.runId) return eventStreamResponse(client.stream(String(body.prompt), { toolkit }));
  let answer: Answer;
  try {
    answer = parseAnswer(body.answer); // untrusted JSON → Answer, or InvalidAnswerError naming the field
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
  return eventStreamResponse(client.resumeStream(body.runId, answer, { toolkit }));
}
