// The chat element's surface for a page: strings, ::part and custom properties, axe-core with every kind
// of Request open, renderRequest on its own, safe links, and nothing registered by importing the module.
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { answerDeclined, type Answer, type PendingRequest } from "toolnexus";
import { defineChatElement, renderRequest } from "toolnexus/widget";
import { card, idle, mount, shadow, until, widgetWorld } from "./widget-world";

afterEach(() => {
  document.body.replaceChildren();
  for (const node of document.head.querySelectorAll("style[data-test]")) node.remove();
});

function pageStyle(css: string) {
  const style = Object.assign(document.createElement("style"), { textContent: css });
  style.dataset.test = "";
  document.head.append(style);
}

async function everyKind() {
  const world = widgetWorld();
  const chat = mount(world);
  await idle(chat);
  await chat.send("every kind");
  await until(chat, () => chat.session!.state.status === "waiting");
  return { world, chat };
}

describe("<toolnexus-chat> for a page", () => {
  it("is not registered by importing the module; defineChatElement registers once, under any tag", () => {
    expect(customElements.get("toolnexus-chat")).toBeUndefined(); // imported above, not yet defined
    expect(customElements.get("toolnexus-chat-import-check")).toBeUndefined();
    const a = defineChatElement("toolnexus-chat-import-check");
    expect(customElements.get("toolnexus-chat-import-check")).toBe(a);
    expect(defineChatElement("toolnexus-chat-import-check")).toBe(a);
  });

  it("every kind open at once: one card each, and axe-core finds no violation, inside the shadow root included", async () => {
    const { chat } = await everyKind();
    const kinds = [...shadow(chat).querySelectorAll(".card")].map((c) => c.getAttribute("data-kind"));
    expect(kinds.sort()).toEqual([
      "approval",
      "authorization",
      "input",
      "input",
      "payment",
      "question",
      "question",
      "tool_call",
    ]);
    const result = await axe.run(chat, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`)).toEqual(
      [],
    );
    expect(result.passes.some((p) => p.nodes.some((n) => Array.isArray(n.target[0])))).toBe(true); // it looked inside
  });

  it("two open approvals are two landmarks, each named by its kind, prompt and arguments (axe landmark-unique)", async () => {
    const world = widgetWorld();
    const chat = mount(world);
    await idle(chat);
    await chat.send("two approvals");
    await until(chat, () => chat.session!.state.requests.length === 2 && chat.session!.state.status === "waiting");
    const cards = [...shadow(chat).querySelectorAll<HTMLElement>('.card[data-kind="approval"]')];
    const names = cards.map((c) =>
      c
        .getAttribute("aria-labelledby")!
        .split(" ")
        .map((id) => shadow(chat).getElementById(id)!.textContent)
        .join(" "),
    );
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const [i, name] of names.entries()) {
      expect(name).toContain("Needs your approval");
      expect(name).toContain(chat.session!.state.requests[i]!.prompt);
    }
    const result = await axe.run(chat, { runOnly: { type: "rule", values: ["landmark-unique"] } });
    expect(result.violations.map((v) => v.id)).toEqual([]);
    expect(result.passes.map((p) => p.id)).toContain("landmark-unique"); // it looked at the cards
  });

  it("strings replace every default the page shows", async () => {
    const world = widgetWorld();
    const chat = mount(world, {
      strings: { send: "Envoyer", approve: "Oui", decline: "Non", kindApproval: "Accord requis" },
    });
    await idle(chat);
    expect(shadow(chat).querySelector("#send")!.textContent).toBe("Envoyer");
    await chat.send("book a table");
    await until(chat, () => chat.session!.state.status === "waiting");
    const a = card(chat, "approval")!;
    expect([...a.querySelectorAll("button")].map((b) => b.textContent)).toEqual(["Oui", "Non"]);
    expect(a.querySelector(".kind")!.textContent).toBe("Accord requis");
    chat.strings = { send: "Senden" }; // set again: drawn again
    expect(shadow(chat).querySelector("#send")!.textContent).toBe("Senden");
    expect(buttonText(card(chat, "approval")!)).toContain("Approve");
  });

  it("::part and custom properties style the inside from the page", async () => {
    pageStyle(`toolnexus-chat { --tnx-accent: rgb(9, 8, 7); }
      toolnexus-chat::part(send) { background-color: rgb(1, 2, 3); }
      toolnexus-chat::part(card) { border-top-width: 7px; }`);
    const { chat } = await everyKind();
    expect(getComputedStyle(shadow(chat).querySelector("#send")!).backgroundColor).toBe("rgb(1, 2, 3)");
    const approve = [...card(chat, "approval")!.querySelectorAll("button")].find((b) => b.textContent === "Approve")!;
    expect(getComputedStyle(approve).backgroundColor).toBe("rgb(9, 8, 7)");
    expect(getComputedStyle(card(chat, "approval")!).borderTopWidth).toBe("7px");
  });
});

const buttonText = (box: ParentNode) => [...box.querySelectorAll("button")].map((b) => b.textContent);

describe("renderRequest", () => {
  it("returns one Request's form for a chat of the app's own; onAnswer gets the Answer and its text", async () => {
    const seen: [Answer, string][] = [];
    const request: PendingRequest = {
      id: "q-1",
      kind: "approval",
      prompt: "Run book?",
      data: { tool: "book", args: {}, rememberable: true },
    };
    const element = renderRequest(request, {
      onAnswer: (answer, text) => seen.push([answer, text]),
      strings: { decline: "No" },
      alwaysAllow: (id) => ({ id, ok: true, data: { output: "approved", remember: "conversation" } }),
    });
    document.body.append(element);
    expect(buttonText(element)).toEqual(["Approve", "Always allow", "No"]);
    await userEvent.click([...element.querySelectorAll("button")].find((b) => b.textContent === "Always allow")!);
    await userEvent.click([...element.querySelectorAll("button")].find((b) => b.textContent === "No")!);
    expect(seen).toEqual([
      [{ id: "q-1", ok: true, data: { output: "approved", remember: "conversation" } }, "Always allowed"],
      [answerDeclined("q-1"), "Declined"],
    ]);
  });

  it("a sign-in link is drawn only for http(s) URLs", () => {
    const link = (url: string) =>
      renderRequest({ id: "a", kind: "authorization", prompt: "Sign in", url }, { onAnswer: () => {} }).querySelector(
        "a",
      );
    expect(link("javascript:alert(1)")).toBeNull();
    expect(link("data:text/html,hi")).toBeNull();
    expect(link("http://auth.example/x")?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("text from the model is text: a prompt with markup makes no element", () => {
    const element = renderRequest(
      { id: "i", kind: "input", prompt: '<img src=x onerror="window.pwned=1">' },
      { onAnswer: () => {} },
    );
    expect(element.querySelector("img")).toBeNull();
    expect(element.querySelector(".prompt")!.textContent).toContain("<img");
  });
});
