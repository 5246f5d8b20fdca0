// The client the official MCP conformance suite drives (`conformance client --command "node this-file"`): it
// connects with toolnexus/mcp, has a scripted model call every tool in one turn (the calls the scenario's
// MCP_CONFORMANCE_CONTEXT names, an echo of the focal schema for json-schema-2020-12-preservation, else every
// listed tool with arguments sampled from its schema), lets the run halt durably on any elicitation, and
// resumes it on a second, fresh connection — round after round — the way a resume in another process does.
import { connectMcp, sanitize } from "../../dist/mcp.js";
import { memoryStorage } from "../../dist/index.js";
import { scriptedClient } from "./support/scripted.mjs";

const url = process.argv.at(-1);
// TOOLNEXUS_AS_PAGE=1: act as a page's main thread (window and document exist), where the MCP client sends
// no Mcp-Param-* headers and toolnexus/mcp computes them itself
if (process.env.TOOLNEXUS_AS_PAGE === "1") {
  globalThis.window = globalThis;
  globalThis.document = {};
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const NAME = "conformance";

function sample(schema) {
  if (!schema || typeof schema !== "object") return "test";
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "integer") return 1;
  if (type === "number") return 1.5;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object" || schema.properties) return sampleObject(schema);
  return "test";
}
function sampleObject(schema) {
  const out = {};
  for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key]);
  return out;
}

function plannedCalls(tools) {
  const name = (mcpName) => `${sanitize(NAME)}_${sanitize(mcpName)}`; // the rule connectMcp names tools by
  if (Array.isArray(context.toolCalls))
    return context.toolCalls.map((c) => ({ name: name(c.name), args: c.arguments ?? {} }));
  const echo = tools.find((t) => t.name === name("json_schema_echo"));
  if (echo) {
    const focal = tools.find((t) => t !== echo);
    return [{ name: echo.name, args: { schema: focal?.inputSchema ?? {} } }];
  }
  return tools.map((t) => ({ name: t.name, args: sampleObject(t.inputSchema) }));
}

/** Accepts every elicitation: a form with values sampled from its requestedSchema (its defaults first). */
function answerFor(request) {
  if (request.kind === "authorization") return { id: request.id, ok: true, data: {} };
  const schema = request.data?.schema ?? {};
  const fields = {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) fields[key] = sample(prop);
  return { id: request.id, ok: true, data: fields };
}

const storage = memoryStorage();
const first = await connectMcp({ name: NAME, url });
if (first.status !== "connected") {
  console.error(first.error?.message);
  process.exit(1);
}
const client = scriptedClient({ calls: plannedCalls(first.tools), storage });
let result = await client.run("call the tools", { toolkit: first.tools });
await first.close();
for (let round = 0; result.status === "pending" && round < 10; round++) {
  const again = await connectMcp({ name: NAME, url }); // a fresh client, as a resume in another process has
  result = await client.resume(result.runId, result.requests.map(answerFor), { toolkit: again.tools });
  await again.close();
}
console.log(
  JSON.stringify({
    status: result.status,
    calls: result.toolCalls.map((c) => [c.name, c.isError, c.output.slice(0, 120)]),
  }),
);
process.exit(result.status === "done" ? 0 : 1);
