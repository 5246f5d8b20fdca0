// The edge half of a chat widget: one endpoint for the page's runs, answers, reloads and stops.
import { createClient, createRunHandler, defineTool, durableObjectStorage, pending } from "toolnexus";
import type { DurableObjectNamespaceLike, RunHandlerContext } from "toolnexus";

const deploy = defineTool({
  name: "deploy",
  description: "Deploys the release once a human approves",
  execute: async (_args, ctx) => (ctx.answer ? "Deployed v42." : pending({ kind: "approval", prompt: "Deploy v42?" })),
});

interface Env {
  OPENAI_API_KEY: string;
  RUN_STORE: DurableObjectNamespaceLike;
}

/** Built once per isolate (env is the same for every request of it): a stop landing here ends the exchange at once. */
let handler: ReturnType<typeof createRunHandler> | undefined;

function runHandler(env: Env) {
  const client = createClient({
    baseUrl: "https://api.openai.com/v1",
    style: "openai",
    model: "gpt-4o-mini",
    apiKey: env.OPENAI_API_KEY, // stays in the Worker: the stream to the page never carries it
    storage: durableObjectStorage({ namespace: env.RUN_STORE }), // halted runs wait here; answered exactly once
  });
  return createRunHandler({ client, toolkit: [deploy] });
}

export default {
  fetch(request: Request, env: Env, ctx: RunHandlerContext) {
    // ctx.waitUntil keeps an exchange running after its page went away (a reload re-attaches to it)
    if (new URL(request.url).pathname === "/api/run") {
      handler ??= runHandler(env);
      return handler(request, ctx);
    }
    return new Response("Not found", { status: 404 });
  },
};
export { RunStoreObject } from "toolnexus";
