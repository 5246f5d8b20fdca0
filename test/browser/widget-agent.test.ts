// A sub-agent's Request (`data.path`, stamped by toolnexus/agents) says which agent asks: renderRequest on its
// own and <toolnexus-chat> over a planner that delegates to a booker whose booking needs approval. The card's
// accessible name includes the agent, the page's own words replace the English, and a Request without a path
// shows no agent.
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import {
  createInProcessClient,
  createRunHandler,
  defineTool,
  type GenerateRequest,
  memoryStorage,
  type PendingRequest,
} from "toolnexus";
import { agent } from "toolnexus/agents";
import { type ChatElement, defineChatElement, renderRequest } from "toolnexus/widget";
import { card, idle, pageStorage, shadow, until } from "./widget-world";

afterEach(() => document.body.replaceChildren());

const approval = (data: Record<string, unknown>): PendingRequest<string> => ({
  id: "r-1",
  kind: "approval",
  prompt: "Book the table?",
  data,
});
const draw = (request: PendingRequest<string>, strings = {}) =>
  document.body.appendChild(renderRequest(request, { onAnswer: () => {}, strings }));

/** The text of the elements that name `el` (aria-labelledby), joined as a screen reader would. */
const accessibleName = (el: HTMLElement) =>
  (el.getAttribute("aria-labelledby") ?? "")
    .split(" ")
    .map((id) => el.querySelector(`#${id}`)?.textContent ?? "")
    .join(" ");

describe("renderRequest: the agent that asks", () => {
  it("a Request with data.path shows its last segment's agent, in the card's accessible name", () => {
    const card = draw(approval({ path: ["root", "planner.1", "booker.1"], args: { what: "table" } }));
    expect(card.querySelector("[part~=agent]")!.textContent).toBe("Asked by booker");
    expect(accessibleName(card)).toContain("Asked by booker");
    expect(accessibleName(card)).toContain("Book the table?");
  });

  it("the page's own words replace the English; a Request without a path shows no agent", () => {
    const card = draw(approval({ path: ["root", "booker.2"] }), { askedBy: "Frage von {agent}" });
    expect(card.querySelector("[part~=agent]")!.textContent).toBe("Frage von booker");
    expect(draw(approval({})).querySelector("[part~=agent]")).toBeNull();
    expect(draw(approval({ path: "nope" as unknown as string[] })).querySelector("[part~=agent]")!.textContent).toBe(
      "Asked by nope",
    );
  });
});

/** A planner whose model (each agent has its own) delegates once to a booker; the booker's model books; booking needs approval. */
function agentWorld() {
  const booked: string[] = [];
  const book = defineTool({
    name: "book",
    description: "books a table",
    inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] },
    needsApproval: true,
    execute: (args) => (booked.push(String(args.what)), `booked ${String(args.what)}`),
  });
  const booker = agent("booker", { does: "books tables", tools: [book], model: "m-booker" });
  const planner = agent("planner", { does: "plans an evening", team: [booker], model: "m-planner" });
  const generate = ({ messages, model }: GenerateRequest) => {
    const list = messages as { role: string; content?: unknown }[];
    if (list.at(-1)!.role === "tool") return { content: `Done: ${String(list.at(-1)!.content)}` };
    if (model === "m-planner")
      return { toolCalls: [{ id: "c1", name: "task", arguments: { agent: "booker", prompt: "book a table" } }] };
    return { toolCalls: [{ id: "c2", name: "book", arguments: { what: "table" } }] };
  };
  const client = createInProcessClient({ model: "m", generate, storage: memoryStorage() });
  const handler = createRunHandler({ client, agent: planner });
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), "http://edge.test"), init))) as typeof globalThis.fetch;
  return { booked, fetch };
}

describe("<toolnexus-chat>: a sub-agent's approval", () => {
  it("the card says the booker asks; approving it books once", async () => {
    const world = agentWorld();
    defineChatElement();
    const chat = document.createElement("toolnexus-chat") as ChatElement;
    chat.setAttribute("endpoint", "/api/run");
    chat.fetch = world.fetch;
    chat.storage = pageStorage();
    document.body.append(chat);
    await idle(chat);
    const input = shadow(chat).querySelector<HTMLInputElement>("#message")!;
    await userEvent.click(input);
    await userEvent.keyboard("book dinner{Enter}");
    const asked = await until(chat, () => card(chat, "approval"));
    expect(asked.querySelector("[part~=agent]")!.textContent).toBe("Asked by booker");
    expect(accessibleName(asked)).toContain("Asked by booker");
    const approve = [...asked.querySelectorAll("button")].find((b) => b.textContent === "Approve")!;
    await userEvent.click(approve);
    await until(chat, () => chat.session!.state.status === "done");
    expect(world.booked).toEqual(["table"]);
  });
});
