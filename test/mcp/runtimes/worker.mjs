// The MCP client scenarios inside a Worker (workerd, no nodejs_compat): POST a JSON list of steps, get their
// results; runs halt into the KV namespace RUNS, which a fresh Miniflare instance reads back from persistence.
import { kvStorage } from "../../../dist/index.js";
import { runSteps } from "./scenarios.mjs";

export default {
  async fetch(request, env) {
    const list = await request.json();
    return Response.json(await runSteps(list, kvStorage({ binding: env.RUNS, prefix: "mcp:" })));
  },
};
