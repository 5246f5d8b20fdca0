// The endpoints under test, served on 127.0.0.1 from Node: an in-process client (no network, a scripted
// model), tools that count their runs, and both handlers behind one small node:http adapter.
import { createServer } from "node:http";
import { createInProcessClient, defineTool, memoryStorage, pending } from "../../dist/index.js";
import { createAgUiHandler } from "../../dist/ag-ui.js";
import { createUiMessageStreamHandler } from "../../dist/ai-sdk.js";

/** The stand-in model: calls the tool a prompt names, then reports the tool results it got. */
function generate({ messages }) {
  const last = messages.at(-1);
  if (last.role === "tool") {
    const from = messages.map((m) => m.role).lastIndexOf("assistant");
    return {
      content: `Done: ${messages
        .slice(from + 1)
        .map((m) => String(m.content))
        .join(" | ")}`,
    };
  }
  const prompt = String(last.content);
  if (prompt.includes("deploy twice"))
    return { toolCalls: ["a", "b"].map((x) => ({ id: `call_${x}`, name: "deploy", arguments: { env: x } })) };
  if (prompt.includes("deploy"))
    return { toolCalls: [{ id: "call_deploy", name: "deploy", arguments: { env: "prod" } }] };
  if (prompt.includes("city")) return { toolCalls: [{ id: "call_city", name: "ask_city", arguments: {} }] };
  if (prompt.includes("slow")) return { toolCalls: [{ id: "call_hold", name: "hold", arguments: {} }] };
  if (prompt.includes("late")) return { toolCalls: [{ id: "call_late", name: "late", arguments: {} }] };
  return { content: `You said: ${prompt}` };
}

export function world() {
  const ran = [];
  /** `hold` waits until the test calls release() (a reload comes while it waits). */
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  let entered;
  const holding = new Promise((resolve) => {
    entered = resolve;
  });
  const tools = [
    defineTool({
      name: "deploy",
      description: "Deploys",
      needsApproval: true,
      inputSchema: { type: "object", properties: { env: { type: "string" } } },
      execute: (args) => {
        ran.push(`deploy:${args.env}`);
        return `deployed ${args.env}`;
      },
    }),
    defineTool({
      name: "ask_city",
      description: "asks which city",
      execute: (_args, ctx) => {
        if (!ctx?.answer)
          return pending({ kind: "question", prompt: "Which city?", data: { options: ["Oslo", "Lima"] } });
        ran.push(`ask_city:${ctx.answer.data?.output ?? ctx.answer.reason}`);
        return `city ${ctx.answer.ok ? ctx.answer.data?.output : "none"}`;
      },
    }),
    defineTool({
      name: "hold",
      description: "waits for the test",
      execute: async () => {
        entered();
        await held;
        ran.push("hold");
        return "held long enough";
      },
    }),
    defineTool({
      name: "late",
      description: "asks for a value that expired long ago",
      execute: (_args, ctx) => {
        if (!ctx?.answer) return pending({ kind: "input", prompt: "Too late?", expiresAt: "2001-01-01T00:00:00.000Z" });
        ran.push(`late:${ctx.answer.ok ? "ok" : ctx.answer.reason}`);
        return "late";
      },
    }),
  ];
  const client = createInProcessClient({
    model: "interop-model",
    generate,
    storage: memoryStorage(),
    resumeSecret: "interop-real-clients-secret-0123456789",
  });
  const owner = (request) => request.headers.get("x-user") ?? "ada";
  return {
    ran,
    release,
    holding,
    agUi: createAgUiHandler({ client, toolkit: tools, owner }),
    chat: createUiMessageStreamHandler({ client, toolkit: tools, owner }),
  };
}

/** Serves `handler` (a fetch-style handler) on 127.0.0.1; resolves its URL and a close(). */
export async function serve(handler) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A tiny runner: each check prints ✓ or ✗, and `summary(label)` prints `<label>: N passed, N failed`. */
export function checks() {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, fn) {
      try {
        await fn();
        passed++;
        console.log(`  ✓ ${name}`);
      } catch (error) {
        failed++;
        console.log(
          `  ✗ ${name}\n      ${String(error?.stack ?? error)
            .split("\n")
            .slice(0, 8)
            .join("\n      ")}`,
        );
      }
    },
    counts: () => ({ passed, failed }),
  };
}
