// Serves the MCP test server on 127.0.0.1 (a free port) through the SDK's Node adapter, behind its localhost
// Host and Origin guards. `serveTestServer(options)` resolves `{ url, base, stats, close }`.
import { createServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createTestServer } from "./test-server.mjs";

export async function serveTestServer(options = {}) {
  const app = createTestServer(options);
  const handle = toNodeHandler({ fetch: app.fetch });
  const host = localhostHostValidation();
  const origin = localhostOriginValidation();
  const server = createServer((req, res) => {
    if (!host(req, res) || !origin(req, res)) return;
    void handle(req, res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    url: `${base}/mcp`,
    stats: () => fetch(`${base}/stats`).then((r) => r.json()),
    expire: () => fetch(`${base}/control/expire`, { method: "POST" }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
