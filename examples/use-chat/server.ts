// The endpoint behind a `useChat` page: toolnexus serves the AI SDK's UI message stream, approvals and
// questions included, and a reload re-attaches to the exchange still running (GET ?chatId=).
// The model is a stand-in so the example runs without a key; put createClient({ ... }) in its place.
import { createInProcessClient, defineTool, pending } from "toolnexus";
import { createUiMessageStreamHandler } from "toolnexus/ai-sdk";

const tools = [
  defineTool({ name: "deploy", description: "Deploys the site", needsApproval: true, execute: () => "deployed" }),
  defineTool({
    name: "pick_city",
    description: "Asks the user for a city",
    execute: (_args, ctx) =>
      ctx?.answer?.ok
        ? `city ${String(ctx.answer.data?.output)}`
        : pending({ kind: "question", prompt: "Which city?", data: { options: ["Oslo", "Lima"] } }),
  }),
  defineTool({
    name: "check_stock",
    description: "Checks the stock (takes a moment)",
    execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("42 in stock"), 1500)),
  }),
];

/** The stand-in model: a prompt naming a tool calls it; after a tool result, it reports it. */
function generate({ messages }: { messages: unknown[] }) {
  const last = messages.at(-1) as { role: string; content: unknown };
  if (last.role === "tool") return { content: `Done: ${String(last.content)}` };
  const prompt = String(last.content);
  const tool = ["deploy", "city", "stock"].find((word) => prompt.includes(word));
  const name = { deploy: "deploy", city: "pick_city", stock: "check_stock" }[tool ?? ""];
  return name ? { toolCalls: [{ id: `call_${name}`, name, arguments: {} }] } : { content: `You said: ${prompt}` };
}

const client = createInProcessClient({ model: "stand-in", generate });

/** POST what useChat sends; GET ?chatId= for useChat({ resume: true }). Mount it at /api/chat. */
export const handleChat = createUiMessageStreamHandler({ client, toolkit: tools });
