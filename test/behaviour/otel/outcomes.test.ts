// toolnexus/otel beyond the happy path: failures as error spans, an inline suspension, the reply's model,
// a host parent span, a tracer that throws, bad options, and the names against the conventions package.
import { context as otelContext, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import * as conventions from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  ConfigError,
  createClient,
  createInProcessClient,
  defineTool,
  isToolnexusError,
  memoryStorage,
  type Tool,
} from "toolnexus";
import { otelTelemetry } from "toolnexus/otel";
import * as names from "../../../src/otel/names";
import { askingTool } from "../../support/asking-tool";
import { scripted } from "../../support/scripted";
import { memoryTracer } from "./support";

const base = { baseUrl: "https://llm.test/v1", style: "openai" as const, model: "m", apiKey: "sk-x", retries: 0 };

describe("toolnexus/otel outcomes", () => {
  it("a failed model call is a chat span and a run span with error.type, and the error still reaches the caller", async () => {
    const memory = memoryTracer();
    const fetch = async () =>
      new Response(JSON.stringify({ error: { message: "bad key sk-x" } }), {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    const client = createClient({ ...base, fetch, telemetry: otelTelemetry({ tracer: memory.tracer }) });
    const failure = await client.run("hi").catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBeTruthy();
    const code = (failure as { code: string }).code;
    const [chat, run] = memory.spans();
    expect(chat!.name).toBe("chat m");
    expect(chat!.attributes["error.type"]).toBe(code);
    expect(chat!.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(run!.name).toBe("invoke_agent");
    expect(run!.attributes["error.type"]).toBe(code);
    expect(run!.attributes["toolnexus.run.status"]).toBe("error");
    expect(memory.spans()).toHaveLength(2);
    expect(JSON.stringify(memory.spans().map((s) => [s.attributes, s.status, s.events]))).not.toContain("sk-x");
  });

  it("a stream whose reader goes away ends its run span, as cancelled", async () => {
    const memory = memoryTracer();
    const s = scripted("openai", [{ text: "a long answer, streamed in pieces" }]);
    const client = createClient({ ...base, fetch: s.fetch, telemetry: otelTelemetry({ tracer: memory.tracer }) });
    for await (const event of client.stream("hi")) if (event.type === "text") break;
    const runs = memory.spans().filter((x) => x.name === "invoke_agent");
    expect(runs).toHaveLength(1);
    expect(runs[0]!.attributes["toolnexus.run.status"]).toBe("cancelled");
  });

  it("a resume whose record has no usable trace context (an older record, a hand edit) runs, unlinked", async () => {
    const memory = memoryTracer();
    const storage = memoryStorage();
    const ask = askingTool({ name: "ask", description: "asks", prompt: "Where?", id: "q1", reply: () => "Goa" });
    const s = scripted("openai", [
      { calls: [{ name: "ask" }] },
      { text: "ok" },
      { calls: [{ name: "ask" }] },
      { text: "ok" },
    ]);
    const telemetry = otelTelemetry({ tracer: memory.tracer });
    const client = createClient({ ...base, fetch: s.fetch, storage, telemetry });
    for (const trace of [{ traceId: "not-hex", spanId: 7 }, undefined]) {
      const halted = await client.run("go", { toolkit: [ask] });
      if (halted.status !== "pending") throw new Error(`expected a halt, got ${halted.status}`);
      const key = `run:${halted.runId}`;
      const record = JSON.parse((await storage.get(key))!);
      expect(record.trace?.spanId).toMatch(/^[0-9a-f]{16}$/); // what the halt stored
      await storage.set(key, JSON.stringify({ ...record, trace }));
      expect((await client.resume(halted.runId, answerOutput("q1", "x"), { toolkit: [ask] })).status).toBe("done");
      const resumed = memory
        .spans()
        .filter((x) => x.name === "invoke_agent")
        .at(-1)!;
      expect(resumed.links).toEqual([]);
      expect(resumed.attributes["toolnexus.resume.wait_ms"]).toBeUndefined();
    }
  });

  it("a tool's error result is an execute_tool span with error.type tool_error; the run goes on", async () => {
    const memory = memoryTracer();
    const broken = defineTool({
      name: "broken",
      description: "throws",
      execute: () => {
        throw new Error("nope");
      },
    });
    const s = scripted("openai", [{ calls: [{ name: "broken" }] }, { text: "sorry" }]);
    const client = createClient({ ...base, fetch: s.fetch, telemetry: otelTelemetry({ tracer: memory.tracer }) });
    expect((await client.run("go", { toolkit: [broken] })).status).toBe("done");
    const span = memory.spans().find((x) => x.name === "execute_tool broken")!;
    expect(span.attributes["error.type"]).toBe("tool_error");
    expect(span.status.code).toBe(2);
    expect(memory.spans().find((x) => x.name === "invoke_agent")!.attributes["toolnexus.run.status"]).toBe("done");
  });

  it("an inline suspension (waitFor) is a pending event in the one run span, and the re-run a second tool span", async () => {
    const memory = memoryTracer();
    const ask = askingTool({
      name: "ask",
      description: "asks",
      kind: "approval",
      prompt: "Go?",
      id: "q1",
      reply: () => "yes",
    });
    const s = scripted("openai", [{ calls: [{ name: "ask" }] }, { text: "ok" }]);
    const client = createClient({
      ...base,
      fetch: s.fetch,
      waitFor: async (r) => answerOutput(r.id, "fine"),
      telemetry: otelTelemetry({ tracer: memory.tracer }),
    });
    expect((await client.run("go", { toolkit: [ask] })).status).toBe("done");
    const runs = memory.spans().filter((x) => x.name === "invoke_agent");
    expect(runs).toHaveLength(1);
    expect(runs[0]!.events.map((e) => [e.name, e.attributes?.["toolnexus.request.kind"]])).toEqual([
      ["pending", "approval"],
    ]);
    expect(memory.spans().filter((x) => x.name === "execute_tool ask")).toHaveLength(2);
  });

  it("gen_ai.response.model and id come from the provider's reply", async () => {
    const memory = memoryTracer();
    const client = createInProcessClient({
      model: "small-model",
      generate: () => ({ content: "hello", usage: { promptTokens: 7, completionTokens: 2 } }),
      telemetry: otelTelemetry({ tracer: memory.tracer }),
    });
    await client.run("hi");
    const chat = memory.spans().find((x) => x.name === "chat small-model")!;
    expect(chat.attributes).toMatchObject({
      "gen_ai.response.model": "small-model",
      "gen_ai.response.id": "in-process",
      "gen_ai.usage.input_tokens": 7,
      "gen_ai.usage.output_tokens": 2,
      "gen_ai.response.finish_reasons": ["stop"],
    });
  });

  it("a run's span is a child of the host's span when `context` names it", async () => {
    const memory = memoryTracer();
    const http = memory.tracer.startSpan("POST /api/run");
    const client = createInProcessClient({
      model: "m",
      generate: () => ({ content: "hi" }),
      telemetry: otelTelemetry({ tracer: memory.tracer, context: () => trace.setSpan(ROOT_CONTEXT, http) }),
    });
    await client.run("hi");
    http.end();
    const run = memory.spans().find((x) => x.name === "invoke_agent")!;
    const chat = memory.spans().find((x) => x.name === "chat m")!;
    expect(run.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(run.spanContext().traceId).toBe(http.spanContext().traceId);
    expect(chat.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(otelContext.active()).toBe(ROOT_CONTEXT); // nothing was made active behind the host's back
  });

  it("a tracer that throws records nothing and changes nothing of the run", async () => {
    const tracer = {
      startSpan() {
        throw new Error("exporter down");
      },
    } as unknown as Parameters<typeof otelTelemetry>[0]["tracer"];
    const s = scripted("openai", [{ text: "fine" }]);
    const client = createClient({ ...base, fetch: s.fetch, telemetry: otelTelemetry({ tracer }) });
    const result = await client.run("hi");
    expect(result.status).toBe("done");
    expect(result.text).toBe("fine");
  });

  it("bad options are a ConfigError naming the option", () => {
    // by its code: the single-file build and the otel entry may each carry the error classes
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isToolnexusError(error) ? `${error.code}: ${error.message}` : String(error);
      }
      return "no error";
    };
    expect(refusal(() => otelTelemetry({} as never))).toMatch(/^config: .*tracer/);
    const { tracer } = memoryTracer();
    expect(refusal(() => otelTelemetry({ tracer, recordContent: "yes" as never }))).toMatch(/^config: .*recordContent/);
    expect(refusal(() => createClient({ ...base, telemetry: { tracer } as never }))).toMatch(/^config: .*telemetry/);
    expect(() => createClient({ ...base, telemetry: { tracer } as never })).toThrow(ConfigError);
  });

  it("a tool that names its server (an MCP tool) is an extension with server.address and server.port", async () => {
    const memory = memoryTracer();
    const remote: Tool = {
      name: "ops_echo",
      description: "echoes",
      inputSchema: { type: "object" },
      source: "mcp",
      server: { name: "ops", address: "mcp.example.test", port: 8443 },
      execute: async () => ({ output: "echo", isError: false }),
    };
    const s = scripted("openai", [{ calls: [{ name: "ops_echo" }] }, { text: "done" }]);
    const client = createClient({ ...base, fetch: s.fetch, telemetry: otelTelemetry({ tracer: memory.tracer }) });
    await client.run("go", { toolkit: [remote] });
    expect(memory.spans().find((x) => x.name === "execute_tool ops_echo")!.attributes).toMatchObject({
      "gen_ai.tool.type": "extension",
      "server.address": "mcp.example.test",
      "server.port": 8443,
      "toolnexus.mcp.server": "ops",
      "mcp.method.name": "tools/call",
    });
  });

  it("the GenAI names are the conventions package's own values", () => {
    const c = conventions as Record<string, unknown>;
    expect(names.OPERATION).toBe(c.ATTR_GEN_AI_OPERATION_NAME);
    expect(names.PROVIDER).toBe(c.ATTR_GEN_AI_PROVIDER_NAME);
    expect(names.REQUEST_MODEL).toBe(c.ATTR_GEN_AI_REQUEST_MODEL);
    expect(names.RESPONSE_MODEL).toBe(c.ATTR_GEN_AI_RESPONSE_MODEL);
    expect(names.RESPONSE_ID).toBe(c.ATTR_GEN_AI_RESPONSE_ID);
    expect(names.FINISH_REASONS).toBe(c.ATTR_GEN_AI_RESPONSE_FINISH_REASONS);
    expect(names.INPUT_TOKENS).toBe(c.ATTR_GEN_AI_USAGE_INPUT_TOKENS);
    expect(names.OUTPUT_TOKENS).toBe(c.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS);
    expect(names.TOOL_NAME).toBe(c.ATTR_GEN_AI_TOOL_NAME);
    expect(names.TOOL_CALL_ID).toBe(c.ATTR_GEN_AI_TOOL_CALL_ID);
    expect(names.TOOL_TYPE).toBe(c.ATTR_GEN_AI_TOOL_TYPE);
    expect(names.TOOL_DESCRIPTION).toBe(c.ATTR_GEN_AI_TOOL_DESCRIPTION);
    expect(names.TOOL_ARGUMENTS).toBe(c.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
    expect(names.TOOL_RESULT).toBe(c.ATTR_GEN_AI_TOOL_CALL_RESULT);
    expect(names.INPUT_MESSAGES).toBe(c.ATTR_GEN_AI_INPUT_MESSAGES);
    expect(names.OUTPUT_MESSAGES).toBe(c.ATTR_GEN_AI_OUTPUT_MESSAGES);
    expect(names.SYSTEM_INSTRUCTIONS).toBe(c.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS);
    expect(names.ERROR_TYPE).toBe(c.ATTR_ERROR_TYPE);
    expect(names.SERVER_ADDRESS).toBe(c.ATTR_SERVER_ADDRESS);
    expect(names.SERVER_PORT).toBe(c.ATTR_SERVER_PORT);
    expect(names.MCP_METHOD).toBe(c.ATTR_MCP_METHOD_NAME);
    expect(Object.values(names.PROVIDERS)).toEqual(
      expect.arrayContaining([c.GEN_AI_PROVIDER_NAME_VALUE_OPENAI, c.GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC]),
    );
    expect(names.PROVIDERS.gemini).toBe(c.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI);
  });
});
