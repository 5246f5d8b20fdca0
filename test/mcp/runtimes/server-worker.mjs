// The MCP test server (test/mcp/servers/test-server.mjs) as a Worker (workerd, no nodejs_compat), with the
// CORS allow list on. Built on first request: nothing runs at import time.
import { createTestServer } from "../servers/test-server.mjs";

let app;
export default {
  fetch(request) {
    app ??= createTestServer({ cors: true });
    return app.fetch(request);
  },
};
