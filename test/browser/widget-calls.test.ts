// <toolnexus-chat> in real Chromium: the tool calls of the exchange as the user sees them — "preparing…" while
// the model is still writing a call's arguments, "running…" while the tool runs, then "done", or "failed" when
// the tool's result is an error. The model streams its call in two pieces and the tool waits, each held until
// the test lets it go, so every step is looked at while it lasts.
import { afterEach, describe, expect, it } from "vitest";
import { createClient, createRunHandler, defineTool, memoryStorage } from "toolnexus";
import { type ChatElement, defineChatElement } from "toolnexus/widget";
import { shadow, until } from "./widget-world";

afterEach(() => document.body.replaceChildren());

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const sse = (delta: unknown, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`;
const encoder = new TextEncoder();

/** A model over an OpenAI-style stream: for "book"/"broken" it writes one call whose arguments come in two pieces. */
function world() {
  const args = gate();
  const tool = gate();
  const modelFetch = (async (_url: unknown, init?: RequestInit) => {
    const { messages } = JSON.parse(String(init?.body)) as { messages: { role: string; content?: unknown }[] };
    const last = messages.at(-1)!;
    const name = String(last.content).includes("broken") ? "broken" : "book";
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (text: string) => controller.enqueue(encoder.encode(text));
        if (last.role === "tool") send(sse({ content: `Finished: ${String(last.content)}` }));
        else {
          const first = { index: 0, id: "call_1", type: "function", function: { name, arguments: '{"what":' } };
          send(sse({ tool_calls: [first] }));
          await args.opened; // the model is still writing the arguments
          send(sse({ tool_calls: [{ index: 0, function: { arguments: '"table"}' } }] }));
        }
        send(sse({}, { finish_reason: last.role === "tool" ? "stop" : "tool_calls" }));
        send("data: [DONE]\n\n");
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  const tools = [
    defineTool({
      name: "book",
      description: "books a table",
      inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] },
      execute: async (input: Record<string, unknown>) => (await tool.opened, `booked ${String(input.what)}`),
    }),
    defineTool({
      name: "broken",
      description: "always fails",
      inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] },
      execute: async () => {
        await tool.opened;
        throw new Error("the booking system is down");
      },
    }),
  ];
  const client = createClient({
    baseUrl: "http://model.test/v1",
    style: "openai",
    model: "m",
    retries: 0,
    fetch: modelFetch,
    storage: memoryStorage(),
  });
  const handler = createRunHandler({ client, toolkit: tools });
  const pageFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), "http://edge.test"), init))) as typeof fetch;
  return { args, tool, pageFetch };
}

function mount(pageFetch: typeof fetch): ChatElement {
  defineChatElement();
  const chat = document.createElement("toolnexus-chat") as ChatElement;
  chat.setAttribute("endpoint", "/api/run");
  chat.fetch = pageFetch;
  chat.storage = null;
  document.body.append(chat);
  return chat;
}

/** The call's line as drawn: its text and the state its class names. */
const line = (chat: ChatElement) => {
  const el = shadow(chat).querySelector<HTMLElement>('[part~="tool-call"][data-call="call_1"]');
  return el && { text: el.textContent, state: [...el.classList].filter((c) => c !== "msg" && c !== "tool") };
};
const shows = (chat: ChatElement, text: string) => until(chat, () => line(chat)?.text === text && line(chat));

describe("<toolnexus-chat>: the exchange's tool calls", () => {
  it("preparing while the arguments stream, running while the tool runs, then done", async () => {
    const { args, tool, pageFetch } = world();
    const chat = mount(pageFetch);
    const sent = chat.send("book a table"); // resolves once the exchange ends
    expect(await shows(chat, "⚙ book — preparing…")).toEqual({ text: "⚙ book — preparing…", state: ["preparing"] });
    expect(chat.session!.state.calls[0]!.input).toBe('{"what":');
    args.open();
    expect(await shows(chat, "⚙ book — running…")).toEqual({ text: "⚙ book — running…", state: ["running"] });
    tool.open();
    expect(await shows(chat, "⚙ book — done")).toEqual({ text: "⚙ book — done", state: ["done"] });
    await sent;
    expect(chat.session!.state.status).toBe("done");
    const said = [...shadow(chat).querySelectorAll(".messages .msg.assistant")].map((m) => m.textContent);
    expect(said).toEqual(["Finished: booked table"]);
  });

  it("an error result shows the call as failed", async () => {
    const { args, tool, pageFetch } = world();
    const chat = mount(pageFetch);
    const sent = chat.send("try the broken one");
    await shows(chat, "⚙ broken — preparing…");
    args.open();
    await shows(chat, "⚙ broken — running…");
    tool.open();
    expect(await shows(chat, "⚙ broken — failed")).toEqual({ text: "⚙ broken — failed", state: ["failed"] });
    await sent;
    expect(chat.session!.state.status).toBe("done");
    expect(shadow(chat).querySelector(".messages .msg.assistant")!.textContent).toMatch(/^Finished: .*down/);
  });
});
