// A world for the AG-UI and useChat endpoints: an in-process client whose model calls the tool a prompt
// names, tools that count their runs (an approval-gated deploy, a question, an input that expired long
// ago), and both handlers in front of it.
import {
  createInProcessClient,
  defineTool,
  memoryStorage,
  pending,
  type GenerateRequest,
  type RunStorage,
} from "toolnexus";
import { createAgUiHandler } from "toolnexus/ag-ui";
import { createUiMessageStreamHandler } from "toolnexus/ai-sdk";

type Message = { role: string; content?: unknown };

/** The stand-in model: calls the tools a prompt names, then reports every tool result it got. */
function generate({ messages }: GenerateRequest) {
  const list = messages as Message[];
  const last = list.at(-1)!;
  if (last.role === "tool") {
    const from = list.map((m) => m.role).lastIndexOf("assistant");
    return {
      content: `Done: ${list
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
  if (prompt.includes("late")) return { toolCalls: [{ id: "call_late", name: "late", arguments: {} }] };
  if (prompt.includes("what did I say")) {
    const said = list.filter((m) => m.role === "user").map((m) => String(m.content));
    return { content: `Earlier: ${said.slice(0, -1).join(" / ") || "nothing"}` };
  }
  return { content: `You said: ${prompt}` };
}

export function interopWorld(
  opts: {
    resumeSecret?: string;
    storage?: RunStorage;
    maxBodyBytes?: number;
    systemPrompt?: string;
    clock?: { now(): number };
  } = {},
) {
  const ran: string[] = [];
  const tools = [
    defineTool({
      name: "deploy",
      description: "Deploys",
      needsApproval: true,
      inputSchema: { type: "object", properties: { env: { type: "string" } } },
      execute: (args) => {
        ran.push(`deploy:${String(args.env)}`);
        return `deployed ${String(args.env)}`;
      },
    }),
    defineTool({
      name: "ask_city",
      description: "asks which city",
      execute: (_args, ctx) => {
        if (!ctx?.answer)
          return pending({ kind: "question", prompt: "Which city?", data: { options: ["Oslo", "Lima"] } });
        ran.push(`ask_city:${String(ctx.answer.data?.output ?? ctx.answer.reason)}`);
        return `city ${ctx.answer.ok ? String(ctx.answer.data?.output) : "none"}`;
      },
    }),
    defineTool({
      name: "late",
      description: "asks for a value that expired long ago",
      execute: (_args, ctx) => {
        if (!ctx?.answer) return pending({ kind: "input", prompt: "Too late?", expiresAt: "2001-01-01T00:00:00.000Z" });
        ran.push(`late:${ctx.answer.ok ? "ok" : String(ctx.answer.reason)}`);
        return "late";
      },
    }),
  ];
  const client = createInProcessClient({
    model: "interop-model",
    generate,
    storage: opts.storage ?? memoryStorage(),
    ...(opts.resumeSecret ? { resumeSecret: opts.resumeSecret } : {}),
    ...(opts.systemPrompt ? { systemPrompt: opts.systemPrompt } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const owner = (request: Request) => request.headers.get("x-user");
  const settings = { client, toolkit: tools, owner, ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}) };
  const agUi = createAgUiHandler(settings);
  const uiMessages = createUiMessageStreamHandler(settings);
  const post = (handler: typeof agUi, body: unknown, user = "ada") =>
    handler(
      new Request("http://edge.test/api", {
        method: "POST",
        headers: { "content-type": "application/json", "x-user": user },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
  return {
    client,
    ran,
    agUi,
    uiMessages,
    postAgUi: (body: unknown, user?: string) => post(agUi, body, user),
    postChat: (body: unknown, user?: string) => post(uiMessages, body, user),
    getChat: (chatId: string, user = "ada") =>
      uiMessages(
        new Request(`http://edge.test/api?chatId=${encodeURIComponent(chatId)}`, { headers: { "x-user": user } }),
      ),
  };
}

/** The JSON of every `data:` frame of an SSE body (`[DONE]` as the string). */
export async function dataFrames(res: Response): Promise<any[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((f) => f.startsWith("data: "))
    .map((f) => {
      const data = f.slice(6);
      return data === "[DONE]" ? data : JSON.parse(data);
    });
}
