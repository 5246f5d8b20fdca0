// Types of the MCP test server (plain JavaScript, so that it also runs in workerd and Deno).
export function createTestServer(options?: { key?: string; cors?: boolean }): {
  fetch(request: Request): Promise<Response>;
  stats: Record<string, unknown>;
};
export function corsHeaders(request: Request): Record<string, string>;
