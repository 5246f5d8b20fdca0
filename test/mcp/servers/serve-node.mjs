// Serves an MCP server's `{ fetch }` on 127.0.0.1 (a free port, or `port`) through the SDK's Node adapter, behind
// its localhost Host and Origin guards. `serveMcp(app)` resolves `{ url, base, close }`; `serveTestServer(options)`
// serves the test server that way, with its `stats` and `expire` control routes. (`npm start` and the demo test
// serve the demo's MCP server, examples/mcp/trip-planner.mjs, with `serveMcp` too.)
import { createServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createTestServer } from "./test-server.mjs";

export async function serveTestServer(options = {}) {
  const served = await serveMcp(createTestServer(options));
  return {
    ...served,
    stats: () => fetch(`${served.base}/stats`).then((r) => r.json()),
    expire: () => fetch(`${served.base}/control/expire`, { method: "POST" }),
  };
}

export async function serveMcp(app, { port = 0 } = {}) {
  const handle = toNodeHandler({ fetch: app.fetch });
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  const server = createServer((req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    void handle(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    url: `${base}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
