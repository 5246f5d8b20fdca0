// A minimal edge function: a run halts into Workers KV, and a later request — any isolate, any
// region — resumes it. POST { prompt } starts a run; POST { runId, answer } answers its Request.
// KV is eventually consistent, so a racing second resume is best effort; for exactly once use
// durableObjectStorage({ namespace }) instead (as demo.ts does).
import { createInProcessClient, defineTool, isToolnexusError, kvStorage, parseAnswer, pending } from "toolnexus";
import type { GenerateRequest } from "toolnexus";

const deploy = defineTool({
  name: "deploy",
  description: "Deploys the release once a human approves",
  execute: async (_args, ctx) =>
    ctx?.answer ? "Deployed v42." : pending({ kind: "approval", prompt: "Deploy v42 to production?" }),
});

// A stand-in model (call the tool, then repeat its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "deploy", arguments: {} }] };
}

export default {
  async fetch(request: Request, env: { RUNS: KVNamespace }): Promise<Response> {
    const client = createInProcessClient({ model: "demo", generate, storage: kvStorage({ binding: env.RUNS }) });
    const body = (await request.json()) as { prompt?: string; runId?: string; answer?: unknown };
    try {
      const result = body.runId
        ? await client.resume(body.runId, parseAnswer(body.answer), { toolkit: [deploy] }) // untrusted JSON → Answer
        : await client.run(String(body.prompt), { toolkit: [deploy] });
      return Response.json({ status: result.status, text: result.text, runId: result.runId, pending: result.pending });
    } catch (error) {
      if (!isToolnexusError(error)) throw error; // a bad answer, an unknown runId, a used answer: say so
      const status = { invalid_answer: 400, run_not_found: 404 }[error.code as string] ?? 409;
      return Response.json({ error: error.code, message: error.message }, { status });
    }
  },
};
