// The test server (test-server.mjs) served on 127.0.0.1 the way the demo serves its MCP server
// (examples/mcp/serve-node.mjs): `serveTestServer(options)` resolves `{ url, base, close, stats, expire }`,
// with the server's `stats` and `expire` control routes.
import { serveMcp } from "../../../examples/mcp/serve-node.mjs";
import { createTestServer } from "./test-server.mjs";

export async function serveTestServer(options = {}) {
  const served = await serveMcp(createTestServer(options));
  return {
    ...served,
    stats: () => fetch(`${served.base}/stats`).then((r) => r.json()),
    expire: () => fetch(`${served.base}/control/expire`, { method: "POST" }),
  };
}
