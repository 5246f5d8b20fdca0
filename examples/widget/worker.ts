// The edge half of a chat widget: one endpoint for the page's runs, answers and reloads.
import { createClient, createRunHandler, defineTool, durableObjectStorage, pending } from "toolnexus";
import type { DurableObjectNamespaceLike } from "toolnexus";

const deploy = defineTool({
  name: "deploy",
  description: "Deploys the release once a human approves",
  execute: async (_args, ctx) => (ctx?.answer ? "Deployed v42." : pending({ kind: "approval", prompt: "Deploy v42?" })),
});

export default {
  fetch(request: Request, env: { OPENAI_API_KEY: string; RUN_STORE: DurableObjectNamespaceLike }) {
    const client = createClient({
      baseUrl: "https://api.openai.com/v1",
      style: "openai",
      model: "gpt-4o-mini",
      apiKey: env.OPENAI_API_KEY, // stays in the Worker: the stream to the page never carries it
      storage: durableObjectStorage({ namespace: env.RUN_STORE }), // halted runs wait here; answered exactly once
    });
    if (new URL(request.url).pathname === "/api/run") return createRunHandler({ client, toolkit: [deploy] })(request);
    return new Response("Not found", { status: 404 });
  },
};
export { RunStoreObject } from "toolnexus";
