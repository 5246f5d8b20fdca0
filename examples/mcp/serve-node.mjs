// Serves an MCP server's `{ fetch }` (such as createTripPlanner's) on 127.0.0.1 — a free port, or `port` —
// through the MCP SDK's Node adapter, behind its localhost Host and Origin guards. `npm start` serves the
// demo's trip planner this way; `serveMcp(app)` resolves `{ url, base, close }`.
import { createServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";

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
