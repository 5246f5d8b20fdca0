// A page and its edge for the chat element's tests: an in-process model that calls the tool a prompt names,
// tools that suspend with every kind of Request (and count how often they really ran), the run handler in
// front of them, and the page's fetch answered by that handler in-page. `mount` puts a <toolnexus-chat> over it.
import {
  authRequired,
  createInProcessClient,
  createRunHandler,
  defineTool,
  type GenerateRequest,
  memoryStorage,
  pending,
  relayTool,
  type SessionStorageLike,
} from "toolnexus";
import { type ChatElement, defineChatElement } from "toolnexus/widget";

type Message = { role: string; content?: unknown };

const TRIP_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", description: "As on your passport" },
    email: { type: "string", format: "email", title: "Email" },
    nights: { type: "integer", title: "Nights", minimum: 1, maximum: 14 },
    pace: { type: "string", title: "Pace", enum: ["relaxed", "busy"] },
    hotel: { type: "boolean", title: "Book a hotel too" },
    stars: {
      type: "integer",
      title: "Stars",
      oneOf: [
        { const: 3, title: "Three" },
        { const: 5, title: "Five" },
      ],
    },
  },
  required: ["name", "nights", "pace"],
} as const;

/** Which tool calls a prompt makes; the model's next turn reports every result it got. */
const CALLS: [RegExp, { name: string; arguments: Record<string, unknown> }[]][] = [
  [
    /two approvals/,
    [
      { name: "book", arguments: { what: "table" } },
      { name: "book", arguments: { what: "taxi" } },
    ],
  ],
  [
    /every kind/,
    ["city", "colours", "trip", "note", "book", "calendar", "lookup", "payment"].map((name) => ({
      name,
      arguments:
        ({ book: { what: "table" }, lookup: { q: "x" } } as Record<string, Record<string, unknown>>)[name] ?? {},
    })),
  ],
  [/city/, [{ name: "city", arguments: {} }]],
  [/colours/, [{ name: "colours", arguments: {} }]],
  [/trip/, [{ name: "trip", arguments: {} }]],
  [/note/, [{ name: "note", arguments: {} }]],
  [/book/, [{ name: "book", arguments: { what: "table" } }]],
  [/calendar/, [{ name: "calendar", arguments: {} }]],
  [/lookup/, [{ name: "lookup", arguments: { q: "x" } }]],
  [/pay/, [{ name: "payment", arguments: {} }]],
  [/transfer/, [{ name: "transfer", arguments: {} }]],
];

function generate({ messages }: GenerateRequest, held: Promise<void>) {
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
  if (prompt.includes("slow")) return held.then(() => ({ content: `Slowly: ${prompt}` }));
  const calls = CALLS.find(([pattern]) => pattern.test(prompt))?.[1];
  if (!calls) return { content: `You said: ${prompt}` };
  return { toolCalls: calls.map((c, i) => ({ id: `call_${i}_${c.name}`, ...c })) };
}

/** `client`: options for its client beside the model and storage (a clock, an answer timeout). */
export function widgetWorld(clientOptions: Partial<Parameters<typeof createInProcessClient>[0]> = {}) {
  const executions: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve)); // a "slow" prompt's answer waits for release()
  const ran = (what: string) => (executions.push(what), what);
  const asking = (name: string, ask: () => ReturnType<typeof pending>) =>
    defineTool({
      name,
      description: name,
      execute: (_args, ctx) => {
        const answer = ctx.answer;
        if (!answer) return ask();
        return ran(
          `${name}:${answer.ok ? JSON.stringify(answer.data) : `${answer.reason}${(answer as { message?: string }).message ? `:${(answer as { message?: string }).message}` : ""}`}`,
        );
      },
    });
  const tools = [
    asking("city", () =>
      pending({
        kind: "question",
        prompt: "Which city? (options: Chennai, Lisbon)",
        data: { questions: [{ question: "Which city?", options: ["Chennai", "Lisbon"] }] },
      }),
    ),
    asking("colours", () =>
      pending({
        kind: "question",
        prompt: "Which colours?",
        data: { options: ["red", "green", "blue"], multiple: true },
      }),
    ),
    asking("trip", () =>
      pending({ kind: "input", prompt: "A few details for your trip", data: { schema: TRIP_SCHEMA } }),
    ),
    asking("note", () => pending({ kind: "input", prompt: "Anything to add?" })),
    asking("calendar", () => authRequired("https://auth.example/consent?x=1", "Sign in to read your calendar")),
    asking("payment", () => pending({ kind: "payment", prompt: "Pay 5 EUR?" })),
    // a tool's own approval request (not needsApproval's): it decides what an answer means, nothing is remembered
    asking("transfer", () => pending({ kind: "approval", prompt: "Transfer 5 EUR?", data: { amount: 5 } })),
    defineTool({
      name: "book",
      description: "books something",
      inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] },
      needsApproval: true,
      execute: (args) => ran(`book:${String(args.what)}`),
    }),
    relayTool("lookup", "looks something up in the page", { type: "object", properties: { q: { type: "string" } } }),
  ];
  const client = createInProcessClient({
    model: "widget-model",
    generate: (req: GenerateRequest) => generate(req, held),
    storage: memoryStorage(),
    ...clientOptions,
  });
  const handler = createRunHandler({ client, toolkit: tools });
  // as a browser's fetch does, an abort rejects the response that has not come yet
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const response = handler(new Request(new URL(String(input), "http://edge.test"), init));
    const signal = init?.signal;
    if (!signal) return response;
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    return Promise.race([response, aborted]);
  }) as typeof globalThis.fetch;
  return { executions, fetch, handler, release: () => release() };
}

/** A page's Web Storage in memory, shared by every element given it (a reload is a new element over it). */
export function pageStorage(): SessionStorageLike {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

/** A <toolnexus-chat> in the document over `world`, with what to set before it connects. */
export function mount(
  world: ReturnType<typeof widgetWorld>,
  props: Partial<Pick<ChatElement, "strings" | "storage" | "alwaysAllow">> = {},
): ChatElement {
  defineChatElement();
  const chat = document.createElement("toolnexus-chat") as ChatElement;
  chat.setAttribute("endpoint", "/api/run");
  chat.fetch = world.fetch;
  chat.storage = props.storage ?? pageStorage();
  if (props.strings) chat.strings = props.strings;
  if (props.alwaysAllow) chat.alwaysAllow = props.alwaysAllow;
  document.body.append(chat);
  return chat;
}

/** Resolves once `check` returns something truthy, after each change of the element's session. */
export function until<T>(chat: ChatElement, check: () => T | undefined | null | false): Promise<T> {
  return new Promise((resolve) => {
    const off = chat.session!.subscribe(() => {
      queueMicrotask(() => {
        const value = check();
        if (value) {
          off();
          resolve(value);
        }
      });
    });
  });
}

export const shadow = (chat: ChatElement) => chat.shadowRoot!;
export const card = (chat: ChatElement, kind: string) =>
  shadow(chat).querySelector<HTMLElement>(`.card[data-kind="${kind}"]`);
export const idle = (chat: ChatElement) =>
  until(chat, () => chat.session!.state.status !== "streaming" && chat.session!.state);
