// <toolnexus-chat> in real Chromium, against a run handler answered in-page: every kind of Request drawn
// and answered by mouse and by keyboard alone, several answered in any order, a reload that restores,
// strings and ::part / custom-property theming, and no axe-core violation with every kind open.
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { type ChatElement, defineChatElement } from "toolnexus/widget";
import { card, idle, mount, pageStorage, shadow, until, widgetWorld } from "./widget-world";

afterEach(() => {
  document.body.replaceChildren();
  for (const node of document.head.querySelectorAll("style[data-test]")) node.remove();
});

const texts = (chat: ChatElement) => [...shadow(chat).querySelectorAll(".messages .msg")].map((m) => m.textContent);
const active = (chat: ChatElement) => shadow(chat).activeElement as HTMLElement | null;
const buttonIn = (box: ParentNode, name: string) =>
  [...box.querySelectorAll("button")].find((b) => b.textContent === name) as HTMLButtonElement;

/** Types `text` into the composer by keyboard and sends it with Enter; resolves when the run has paused. */
async function say(chat: ChatElement, text: string) {
  const input = shadow(chat).querySelector<HTMLInputElement>("#message")!;
  await idle(chat);
  await userEvent.click(input);
  await userEvent.keyboard(text);
  await userEvent.keyboard("{Enter}");
  await until(chat, () => chat.session!.state.status !== "streaming" && chat.session!.state.status !== "idle");
}

describe("<toolnexus-chat>: each kind answered by mouse", () => {
  it("question: option buttons; a click answers, the tool runs once with it", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "which city?");
    const q = card(chat, "question")!;
    expect(q.querySelector(".prompt")!.textContent).toBe("Which city?");
    expect([...q.querySelectorAll(".options button")].map((b) => b.textContent)).toEqual(["Chennai", "Lisbon"]);
    await userEvent.click(buttonIn(q, "Lisbon"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['city:{"output":"Lisbon"}']);
    expect(texts(chat)).toEqual(["which city?", "Lisbon", 'Done: city:{"output":"Lisbon"}']);
    expect(card(chat, "question")).toBeNull();
  });

  it("question with multiple: toggles, then Submit sends every choice", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "which colours?");
    const q = card(chat, "question")!;
    await userEvent.click(buttonIn(q, "red"));
    await userEvent.click(buttonIn(q, "blue"));
    expect(buttonIn(q, "blue").getAttribute("aria-pressed")).toBe("true");
    expect(buttonIn(q, "green").getAttribute("aria-pressed")).toBe("false");
    await userEvent.click(buttonIn(q, "Submit"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['colours:{"output":"red, blue"}']);
  });

  it("input with a schema: a form with typed fields, labels and required marks; Submit sends answerForm", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "plan a trip");
    const form = card(chat, "input")!.querySelector("form")!;
    const control = (label: string) => {
      const l = [...form.querySelectorAll("label")].find((x) => x.textContent!.startsWith(label))!;
      return form.querySelector<HTMLInputElement>(`#${l.htmlFor}`)!;
    };
    expect([...form.querySelectorAll(".field .label")].map((l) => l.textContent)).toEqual([
      "Your name *",
      "Email",
      "Nights *",
      "Pace *",
      "Book a hotel too",
      "Stars",
    ]);
    expect(control("Email").type).toBe("email");
    expect([control("Nights").type, control("Nights").min, control("Nights").max]).toEqual(["number", "1", "14"]);
    expect(control("Your name").getAttribute("aria-describedby")).toBeTruthy();
    expect([...(control("Pace") as unknown as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      "",
      "relaxed",
      "busy",
    ]);
    expect(control("Book a hotel too").type).toBe("checkbox");
    await userEvent.click(buttonIn(form, "Submit")); // the browser refuses an incomplete form
    expect(world.executions).toEqual([]);
    await userEvent.fill(control("Your name"), "Ada");
    await userEvent.fill(control("Nights"), "3");
    await userEvent.selectOptions(control("Pace") as unknown as HTMLSelectElement, "busy");
    await userEvent.click(control("Book a hotel too"));
    await userEvent.selectOptions(control("Stars") as unknown as HTMLSelectElement, "Five");
    await userEvent.click(buttonIn(form, "Submit"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['trip:{"name":"Ada","nights":3,"pace":"busy","hotel":true,"stars":5}']);
    expect(texts(chat)[1]).toBe("Your name: Ada · Nights: 3 · Pace: busy · Book a hotel too: yes · Stars: 5");
  });

  it("approval: Approve runs the tool once; Decline with a reason does not run it and says why", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "book a table");
    const a = card(chat, "approval")!;
    expect(a.querySelector(".args")!.textContent).toContain('"what": "table"');
    await userEvent.click(buttonIn(a, "Approve"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(["book:table"]);
    await say(chat, "book a table");
    const b = card(chat, "approval")!;
    await userEvent.fill(b.querySelector<HTMLInputElement>('input[name="reason"]')!, "too pricey");
    await userEvent.click(buttonIn(b, "Decline"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(["book:table"]);
    expect(texts(chat)).toContain("Declined: too pricey");
  });

  it('remember="conversation": Always allow runs the tool, and its next call in the conversation asks nothing', async () => {
    const world = widgetWorld();
    const chat = mount(world);
    chat.setAttribute("remember", "conversation");
    await say(chat, "book a table");
    await userEvent.click(buttonIn(card(chat, "approval")!, "Always allow"));
    await until(chat, () => chat.session!.state.status === "done");
    await say(chat, "book a table");
    expect(chat.session!.state.status).toBe("done"); // not waiting: no approval was asked
    expect(card(chat, "approval")).toBeNull();
    expect(world.executions).toEqual(["book:table", "book:table"]);
    const other = mount(world); // another page's conversation
    await say(other, "book a table");
    expect(card(other, "approval")).not.toBeNull();
    expect(world.executions).toHaveLength(2);
  });

  it("Always allow is offered only where it is remembered: not on a tool's own approval request", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    chat.setAttribute("remember", "conversation");
    await say(chat, "transfer money");
    const own = card(chat, "approval")!;
    expect(buttonIn(own, "Approve")).toBeDefined();
    expect(buttonIn(own, "Always allow")).toBeUndefined();
    await userEvent.click(buttonIn(own, "Approve"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['transfer:{"output":"approved"}']);
    await say(chat, "book a table"); // needsApproval's gate: remembered, so offered
    expect(buttonIn(card(chat, "approval")!, "Always allow")).toBeDefined();
  });

  it("without remember or alwaysAllow, an approval has no Always allow", async () => {
    const chat = mount(widgetWorld());
    await say(chat, "book a table");
    expect(buttonIn(card(chat, "approval")!, "Always allow")).toBeUndefined();
  });

  it("authorization: a sign-in link that opens in a new tab without an opener; continue answers", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "read my calendar");
    const c = card(chat, "authorization")!;
    const link = c.querySelector("a")!;
    expect([link.href, link.target, link.rel]).toEqual([
      "https://auth.example/consent?x=1",
      "_blank",
      "noopener noreferrer",
    ]);
    await userEvent.click(buttonIn(c, "I've signed in — continue"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['calendar:{"output":"signed in"}']);
  });

  it("relay tool_call and a custom kind get a field to answer in", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "lookup x");
    const r = card(chat, "tool_call")!;
    await userEvent.fill(r.querySelector("input")!, "42");
    await userEvent.click(buttonIn(r, "Submit"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(texts(chat).at(-1)).toBe("Done: 42");
    await say(chat, "pay please");
    const p = card(chat, "payment")!;
    expect(p.querySelector(".kind")!.textContent).toBe("Request");
    await userEvent.fill(p.querySelector("input")!, "ok");
    await userEvent.click(buttonIn(p, "Reply"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(['payment:{"output":"ok"}']);
  });
});

describe("<toolnexus-chat>: by keyboard alone", () => {
  it("Tab and Enter reach and answer every kind; focus lands on the next control and is visible", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "which city?");
    expect(active(chat)?.textContent).toBe("Chennai"); // the new question's first control
    expect(active(chat)!.matches(":focus-visible")).toBe(true);
    expect(getComputedStyle(active(chat)!).outlineStyle).toBe("solid");
    await userEvent.keyboard("{Tab}{Enter}");
    await idle(chat);
    await until(chat, () => active(chat)?.id === "message"); // back in the composer
    await say(chat, "which colours?");
    await userEvent.keyboard("{Enter}{Tab}{Tab} {Tab}{Enter}"); // red, blue, Submit
    await until(chat, () => world.executions.length === 2);
    await say(chat, "plan a trip");
    await userEvent.keyboard("Ada{Tab}ada@example.com{Tab}2{Tab}r{Tab} {Enter}");
    await until(chat, () => world.executions.length === 3);
    await say(chat, "a note");
    await userEvent.keyboard("window seat{Enter}");
    await until(chat, () => world.executions.length === 4);
    await say(chat, "book a table");
    await userEvent.keyboard("{Tab}no thanks{Enter}"); // past Approve to the reason; Enter declines
    await until(chat, () => chat.session!.state.status === "done");
    expect(texts(chat)).toContain("Declined: no thanks");
    await say(chat, "read my calendar");
    expect(active(chat)?.tagName).toBe("A");
    await userEvent.keyboard("{Tab}{Enter}");
    await until(chat, () => world.executions.length === 5);
    await say(chat, "book a table");
    await userEvent.keyboard("{Enter}"); // Approve
    await until(chat, () => world.executions.length === 6);
    expect(world.executions).toEqual([
      'city:{"output":"Lisbon"}',
      'colours:{"output":"red, blue"}',
      'trip:{"name":"Ada","email":"ada@example.com","nights":2,"pace":"relaxed","hotel":true}',
      'note:{"output":"window seat"}',
      'calendar:{"output":"signed in"}',
      "book:table",
    ]);
  });
});

describe("<toolnexus-chat>: several open, and a reload", () => {
  it("two approvals answered in reverse order: each tool runs once, after its own approval", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "two approvals");
    const cards = [...shadow(chat).querySelectorAll<HTMLElement>('.card[data-kind="approval"]')];
    expect(cards.map((c) => c.querySelector(".args")!.textContent!.includes("taxi"))).toEqual([false, true]);
    await userEvent.click(buttonIn(cards[1]!, "Approve"));
    await until(chat, () => chat.session!.state.status === "waiting");
    expect(world.executions).toEqual(["book:taxi"]);
    expect(shadow(chat).querySelectorAll(".card")).toHaveLength(1);
    expect(shadow(chat).querySelector(".card")).toBe(cards[0]); // the other card is kept as it was
    await userEvent.click(buttonIn(cards[0]!, "Approve"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(["book:taxi", "book:table"]);
    expect(texts(chat).at(-1)).toBe("Done: book:table | book:taxi");
  });

  it("a reload mid-question: a new element over the same storage shows the question again, and answers it", async () => {
    const world = widgetWorld();
    const storage = pageStorage();
    const first = mount(world, { storage });
    await say(first, "which city?");
    first.remove(); // the tab reloads
    const second = mount(world, { storage });
    const q = await until(second, () => card(second, "question"));
    expect(texts(second)).toEqual(["which city?"]);
    await userEvent.click(buttonIn(q, "Chennai"));
    await until(second, () => second.session!.state.status === "done");
    expect(world.executions).toEqual(['city:{"output":"Chennai"}']);
  });
});

describe("<toolnexus-chat>: what a hurried user does", () => {
  it("Stop shows while a run streams and ends it; the composer comes back", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await idle(chat);
    const stop = shadow(chat).querySelector<HTMLButtonElement>("#stop")!;
    expect(stop.hidden).toBe(true);
    void chat.send("a slow one");
    await until(chat, () => chat.session!.state.status === "streaming");
    expect(stop.hidden).toBe(false);
    expect(shadow(chat).querySelector<HTMLButtonElement>("#send")!.disabled).toBe(true);
    await userEvent.click(stop);
    await until(chat, () => chat.session!.state.status !== "streaming");
    expect(stop.hidden).toBe(true);
    expect(active(chat)?.id).toBe("message"); // focus is not lost with the hidden button
    expect(shadow(chat).querySelector<HTMLInputElement>("#message")!.disabled).toBe(false);
    world.release();
  });

  it("a double click on Approve answers once: the tool runs once", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await say(chat, "book a table");
    await userEvent.dblClick(buttonIn(card(chat, "approval")!, "Approve"));
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.executions).toEqual(["book:table"]);
  });

  it("an element added before its endpoint says what is missing, and starts once it is set", async () => {
    const world = widgetWorld();
    const chat = document.createElement("toolnexus-chat") as ChatElement;
    chat.fetch = world.fetch;
    chat.storage = pageStorage();
    document.body.append(chat);
    expect(shadow(chat).querySelector(".msg.error")!.textContent).toContain(
      "needs an endpoint, the URL of a createRunHandler",
    );
    chat.endpoint = "/api/run";
    await say(chat, "hello");
    expect(texts(chat)).toEqual(["hello", "You said: hello"]);
    expect(shadow(chat).querySelector(".msg.error")).toBeNull();
  });

  it("properties a page set on the tag in its HTML before defineChatElement ran are kept", async () => {
    const world = widgetWorld();
    document.body.innerHTML = '<chat-before-define endpoint="/api/run"></chat-before-define>';
    const early = document.querySelector("chat-before-define") as ChatElement;
    early.fetch = world.fetch;
    early.storage = pageStorage();
    early.strings = { send: "Go" };
    defineChatElement("chat-before-define");
    expect(shadow(early).querySelector("#send")!.textContent).toBe("Go");
    await say(early, "hello");
    expect(texts(early)).toEqual(["hello", "You said: hello"]);
  });
});
