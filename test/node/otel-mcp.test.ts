// toolnexus/mcp tools traced by toolnexus/otel: each call an execute_tool span naming its server (host and
// port only — never the URL's query or a configured header), and an elicitation a pending event.
import { describe, expect, it } from "vitest";
import { createClient } from "toolnexus";
import { connectMcp } from "toolnexus/mcp";
import { otelTelemetry } from "toolnexus/otel";
import { createTestServer } from "../mcp/servers/test-server.mjs";
import { scripted } from "../support/scripted";
import { exported, memoryTracer } from "../behaviour/otel/support";

describe("toolnexus/otel with toolnexus/mcp", () => {
  it("an MCP call is an extension span with its server; its elicitation a pending event", async () => {
    const server = createTestServer();
    const conn = await connectMcp({
      name: "ops",
      url: "https://mcp.example.test:8443/mcp?token=QUERY-SECRET-1",
      headers: { "X-Api-Key": "HEADER-SECRET-2" },
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    expect(conn.status).toBe("connected");
    try {
      const memory = memoryTracer();
      const s = scripted("openai", [
        { calls: [{ name: "ops_echo", args: { text: "hi" } }] },
        { calls: [{ name: "ops_deploy", args: { env: "prod" } }] },
      ]);
      const client = createClient({
        baseUrl: "https://llm.test/v1",
        style: "openai",
        model: "m",
        apiKey: "sk-x",
        fetch: s.fetch,
        telemetry: otelTelemetry({ tracer: memory.tracer, recordContent: true }),
      });
      const result = await client.run("deploy", { toolkit: conn.tools });
      expect(result.status).toBe("pending");
      const spans = memory.spans();
      const echo = spans.find((x) => x.name === "execute_tool ops_echo")!;
      expect(echo.attributes).toMatchObject({
        "gen_ai.tool.type": "extension",
        "toolnexus.tool.source": "mcp",
        "toolnexus.mcp.server": "ops",
        "server.address": "mcp.example.test",
        "server.port": 8443,
        "mcp.method.name": "tools/call",
        "gen_ai.tool.call.result": "echo: hi",
      });
      const deploy = spans.find((x) => x.name === "execute_tool ops_deploy")!;
      expect(deploy.attributes["toolnexus.request.kind"]).toBe("input");
      const run = spans.find((x) => x.name === "invoke_agent")!;
      expect(run.events.map((e) => e.attributes?.["toolnexus.request.kind"])).toEqual(["input"]);
      const json = exported(spans);
      expect(json).not.toContain("QUERY-SECRET-1");
      expect(json).not.toContain("HEADER-SECRET-2");
    } finally {
      await conn.close();
    }
  });
});
