// <toolnexus-chat> in real Chromium, two pages on one run: a Stop in one is a normal end in both — idle, the
// same text, a muted "Stopped" mark after it. Also what a waiting call reads, and a conflict's notice chosen by
// its reason. The model streams two words, then waits (until its request is aborted) for a third.
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { createClient, createRunHandler, memoryStorage } from "toolnexus";
import { type ChatElement, DEFAULT_STRINGS, defineChatElement } from "toolnexus/widget";
import { pageStorage, shadow, until, widgetWorld } from "./widget-world";

afterEach(() => document.body.replaceChildren());

const encoder = new TextEncoder();
const sse = (delta: unknown, extra: Record<string, unknown> = {}) =>
  encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`);

/** An endpoint whose model says "one two " and then holds until the exchange is stopped. */
function slowWorld() {
  const modelFetch = (async (_url: unknown, init?: RequestInit) => {
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(sse({ content: "one " }));
        controller.enqueue(sse({ content: "two " }));
        await new Promise((_, reject) =>
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
        );
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  const client = createClient({
    baseUrl: "http://model.test/v1",
    style: "openai",
    model: "m",
    retries: 0,
    fetch: modelFetch,
    storage: memoryStorage(),
  });
  const handler = createRunHandler({ client, toolkit: [] });
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), "http://edge.test"), init))) as typeof fetch;
}

function mount(pageFetch: typeof fetch, storage = pageStorage()): ChatElement {
  defineChatElement();
  const chat = document.createElement("toolnexus-chat") as ChatElement;
  chat.setAttribute("endpoint", "/api/run");
  chat.fetch = pageFetch;
  chat.storage = storage;
  document.body.append(chat);
  return chat;
}

const messages = (chat: ChatElement) => [...shadow(chat).querySelectorAll(".messages .msg")].map((m) => m.textContent);

describe("<toolnexus-chat>: a Stop in one page ends the run cleanly in every page", () => {
  it("page B stops the run page A started: both idle, the same text, each with the Stopped mark", async () => {
    const pageFetch = slowWorld();
    const storage = pageStorage(); // the two pages share it, as two tabs share localStorage
    const a = mount(pageFetch, storage);
    void a.send("count");
    await until(a, () => a.session!.state.text === "one two ");
    const b = mount(pageFetch, storage); // restores: re-attaches to the exchange streaming now
    await until(b, () => b.session!.state.text === "one two ");
    const stop = shadow(b).querySelector<HTMLButtonElement>("#stop")!;
    expect(stop.hidden).toBe(false);
    await userEvent.click(stop);
    for (const chat of [a, b]) {
      await until(chat, () => chat.session!.state.status === "idle");
      expect(chat.session!.state.error).toBeUndefined();
      expect(messages(chat)).toEqual(["count", `one two ${DEFAULT_STRINGS.stopped}`]);
      expect(shadow(chat).querySelector(".msg.assistant .stopped")!.textContent).toBe("Stopped");
      expect(shadow(chat).querySelector('[part~="error"]')).toBeNull();
      expect(shadow(chat).querySelector<HTMLButtonElement>("#stop")!.hidden).toBe(true);
    }
  });
});

describe("<toolnexus-chat>: what a call waiting on you and a conflict read", () => {
  it('a call waiting on an approval reads "waiting for you"', async () => {
    const world = widgetWorld();
    const chat = mount(world.fetch);
    await chat.send("book a table");
    await until(chat, () => chat.session!.state.status === "waiting");
    expect(chat.session!.state.calls.map((c) => c.status)).toEqual(["waiting"]);
    const row = shadow(chat).querySelector('[part="tool-call"]')!;
    expect(row.textContent).toBe(`⚙ book — ${DEFAULT_STRINGS.toolWaiting}`);
  });

  it("a prompt to a conversation another page streams: the busy notice, chosen by the error's reason", async () => {
    const pageFetch = slowWorld();
    const a = mount(pageFetch);
    void a.send("count");
    await until(a, () => a.session!.state.text === "one two ");
    const { conversationId } = JSON.parse(firstValue(a)) as { conversationId: string };
    const storage = pageStorage();
    storage.setItem("toolnexus:run-session", JSON.stringify({ conversationId, messages: [] }));
    const b = mount(pageFetch, storage);
    await b.send("me too");
    await until(b, () => b.session!.state.status === "error");
    expect(b.session!.state.error).toMatchObject({ code: "run_conflict", reason: "busy" });
    expect(shadow(b).querySelector('[part="notice"]')!.textContent).toBe(DEFAULT_STRINGS.busy);
    await a.session!.stop();
  });
});

/** What page A keeps in its Web Storage. */
function firstValue(chat: ChatElement): string {
  return (chat.storage as { getItem(key: string): string | null }).getItem("toolnexus:run-session")!;
}
