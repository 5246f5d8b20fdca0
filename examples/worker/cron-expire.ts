// Questions that time out by themselves, on Workers: an approval nobody answers within its deadline is
// continued by a Cron Trigger as declined ("expired") — the tool never runs, the model is told, the
// conversation goes on. In wrangler.toml:
//   [triggers]
//   crons = ["* * * * *"]   # every minute: client.expire() continues the runs whose deadline passed
// POST { prompt } starts a run (it halts on the approval); GET ?runId= says where it stands.
// KV is eventually consistent: for exactly once, use durableObjectStorage({ namespace }) — whose
// RunStoreObject can also continue due runs from its own alarm (see the suspensions guide).
import { createInProcessClient, defineTool, kvStorage } from "toolnexus";
import type { GenerateRequest } from "toolnexus";

interface Env {
  RUNS: KVNamespace;
  /** How long an approval waits, in seconds (default 15 minutes). */
  APPROVAL_TIMEOUT_SECONDS?: string;
}

const deployTool = (env: Env) =>
  defineTool({
    name: "deploy",
    description: "Deploys the release once a human approves",
    needsApproval: true,
    approvalTimeoutSeconds: Number(env.APPROVAL_TIMEOUT_SECONDS ?? 900),
    execute: () => "Deployed v42.",
  });

// A stand-in model (call the tool, then repeat its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "deploy", arguments: {} }] };
}

const clientFor = (env: Env) =>
  createInProcessClient({ model: "demo", generate, storage: kvStorage({ binding: env.RUNS }) });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const client = clientFor(env);
    const runId = new URL(request.url).searchParams.get("runId");
    if (runId) return Response.json((await client.inspect(runId)) ?? { status: "unknown" });
    const { prompt } = (await request.json()) as { prompt?: string };
    const result = await client.run(String(prompt), { toolkit: [deployTool(env)] });
    if (result.status !== "pending") return Response.json({ status: result.status, text: result.text });
    return Response.json({ status: result.status, runId: result.runId, requests: result.requests });
  },

  // the Cron Trigger: every run whose deadline passed continues as declined, each exactly once
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    const expiring = clientFor(env).expire({ toolkit: [deployTool(env)], limit: 500 });
    ctx.waitUntil(expiring.then(({ continued }) => console.log(`continued ${continued.length} runs`)));
    await expiring;
  },
};
