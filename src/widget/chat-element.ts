// <toolnexus-chat endpoint="/api/run">: a chat on createRunSession — messages, streaming text, the calls
// being run, every open Request as a card (renderRequest), a composer and a Stop button while streaming.
// The class is made when defineChatElement is called (HTMLElement does not exist in a Worker or on a
// server), so importing this file registers nothing and touches no global.
import { answerApproval } from "../page/index";
import {
  createRunSession,
  type RunSession,
  type RunSessionCall,
  type RunSessionState,
  type SessionStorageLike,
} from "../page/index";
import type { Answer, PendingRequest } from "../types";
import { h } from "./dom";
import { renderRequest } from "./render-request";
import { type ChatStrings, mergeStrings } from "./strings";
import { STYLE } from "./style";

/** A tool call as the session shows it (`state.calls`). */
export type ToolCallView = RunSessionCall;

/**
 * The element's properties and methods, beside its `endpoint`, `storage`, `storage-key` and `remember`
 * attributes (`remember="conversation"` or `"owner"`: approvals show "Always allow", answering with
 * `answerApproval(id, { remember })`, unless `alwaysAllow` says otherwise).
 */
export interface ChatElement extends HTMLElement {
  /** The createRunHandler endpoint (the `endpoint` attribute). Read when the element first connects. */
  endpoint: string;
  /** Strings merged over the English defaults; setting it redraws. */
  strings: Partial<ChatStrings>;
  /** The fetch the session uses (default: the global one). Set before the element connects. */
  fetch: typeof fetch | undefined;
  /** Where the open run is kept; overrides the `storage` attribute ("session", "local", "none"). */
  storage: SessionStorageLike | null | undefined;
  /** Shows "Always allow" on approvals, answering with what it returns (see RenderRequestOptions). */
  alwaysAllow: ((id: string) => Answer) | undefined;
  /** The session, once the element has connected. */
  readonly session: RunSession | undefined;
  /** Sends `text` as the user's message, as the composer does. */
  send(text: string): Promise<void>;
}

type Drawn = { messages?: unknown; requests?: unknown; busy?: boolean };

interface Ui {
  s: ChatStrings;
  log: HTMLElement;
  messages: HTMLElement;
  empty: HTMLElement;
  live: HTMLElement;
  calls: HTMLElement;
  cards: HTMLElement;
  status: HTMLElement;
  input: HTMLInputElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
}

function build(root: ShadowRoot, s: ChatStrings, onSend: (text: string) => void, onStop: () => void): Ui {
  const div = (className: string, part: string) => h("div", { className, part });
  const empty = h("div", { className: "empty", part: "empty" }, h("slot", { name: "empty" }, s.empty));
  const ui: Ui = {
    s,
    log: h("div", { className: "log", id: "log", part: "log", role: "log", "aria-label": s.logLabel, tabIndex: 0 }),
    messages: div("messages", "messages"),
    empty,
    live: h("div", { className: "msg assistant", part: "message assistant-message live" }),
    calls: div("calls", "calls"),
    cards: div("cards", "requests"),
    status: div("status", "status"),
    input: h("input", {
      id: "message",
      name: "message",
      autocomplete: "off",
      part: "input",
      placeholder: s.messagePlaceholder,
      "aria-label": s.messageLabel,
    }),
    send: h("button", { id: "send", type: "submit", className: "primary", part: "button send" }, s.send),
    stop: h("button", { id: "stop", type: "button", part: "button stop", hidden: true, onclick: onStop }, s.stop),
  };
  ui.log.append(ui.messages, empty, ui.live, ui.calls, ui.cards, ui.status);
  const composer = h("form", { className: "composer", part: "composer" }, ui.input, ui.send, ui.stop);
  composer.onsubmit = (event) => {
    event.preventDefault();
    const text = ui.input.value.trim();
    if (!text) return;
    ui.input.value = "";
    onSend(text);
  };
  root.replaceChildren(h("style", {}, STYLE), ui.log, composer);
  return ui;
}

/** The notice for a session error: a polite one for the errors a second tab or a retry causes. */
function notice(error: { code: string; message: string }, s: ChatStrings): HTMLElement {
  const busy = error.code === "run_conflict" && / is busy /.test(error.message);
  const text = busy
    ? s.busy
    : error.code === "run_conflict"
      ? s.conflict
      : /^(run_not_found|answer_mismatch)$/.test(error.code)
        ? s.gone
        : undefined;
  return text
    ? h("div", { className: "msg notice", part: "notice" }, text)
    : h("div", { className: "msg error", part: "error", role: "alert" }, `${s.error} ${error.message}`);
}

/** What an element without an endpoint shows: a page's mistake, said plainly. */
const NO_ENDPOINT: RunSessionState = {
  status: "error",
  messages: [],
  text: "",
  requests: [],
  calls: [],
  runId: undefined,
  error: {
    code: "config",
    message: 'toolnexus: <toolnexus-chat> needs an endpoint, the URL of a createRunHandler: endpoint="/api/run"',
  },
};

/** The first control a keyboard user would want in `box`. */
const firstControl = (box: ParentNode) => box.querySelector<HTMLElement>("button, input, select, a[href]");

/**
 * Registers the chat element under `tag` (once; a second call returns the class already registered) and
 * returns its class. Call it in a page, never in a Worker or on a server.
 */
export function defineChatElement(tag = "toolnexus-chat"): CustomElementConstructor {
  const known = customElements.get(tag);
  if (known) return known;
  class ToolnexusChat extends HTMLElement implements ChatElement {
    #fetch: typeof fetch | undefined;
    #storage: SessionStorageLike | null | undefined;
    #alwaysAllow: ((id: string) => Answer) | undefined;
    #strings: Partial<ChatStrings> = {};
    #session: RunSession | undefined;
    #off: (() => void) | undefined;
    #ui: Ui | undefined;
    #drawn: Drawn = {};
    #cards = new Map<string, HTMLElement>();
    #refocus = false;

    constructor() {
      super();
      // a property a page set before the element was defined is an own property hiding the accessor: take it
      for (const key of ["fetch", "storage", "alwaysAllow", "strings", "endpoint"] as const) {
        if (!Object.hasOwn(this, key)) continue;
        const value = this[key];
        delete (this as Partial<Record<typeof key, unknown>>)[key];
        (this as Record<typeof key, unknown>)[key] = value;
      }
    }

    get fetch(): typeof fetch | undefined {
      return this.#fetch;
    }
    set fetch(value: typeof fetch | undefined) {
      this.#fetch = value;
    }
    get storage(): SessionStorageLike | null | undefined {
      return this.#storage;
    }
    set storage(value: SessionStorageLike | null | undefined) {
      this.#storage = value;
    }
    get alwaysAllow(): ((id: string) => Answer) | undefined {
      return this.#alwaysAllow;
    }
    set alwaysAllow(value: ((id: string) => Answer) | undefined) {
      this.#alwaysAllow = value;
      if (this.#session) this.#redraw();
    }
    get endpoint(): string {
      return this.getAttribute("endpoint") ?? "";
    }
    set endpoint(value: string) {
      this.setAttribute("endpoint", value);
    }
    get strings(): Partial<ChatStrings> {
      return this.#strings;
    }
    set strings(value: Partial<ChatStrings>) {
      this.#strings = { ...value };
      if (this.#session) this.#redraw();
    }
    get session(): RunSession | undefined {
      return this.#session;
    }
    send(text: string): Promise<void> {
      return this.#session?.send(text) ?? Promise.resolve();
    }

    static observedAttributes = ["endpoint", "remember"];

    connectedCallback(): void {
      this.#connect();
    }
    attributeChangedCallback(name: string): void {
      if (name === "remember") return void (this.#session && this.#redraw());
      if (this.isConnected) this.#connect(); // an element added before its endpoint was set starts now
    }
    /** Starts the session once there is an endpoint (kept for the element's life), and listens to it. */
    #connect(): void {
      if (!this.#session) {
        if (!this.endpoint) return this.#draw(NO_ENDPOINT);
        this.#session = createRunSession({ endpoint: this.endpoint, ...this.#options() });
        void this.#session.restore();
      }
      this.#off?.();
      this.#off = this.#session.subscribe((state) => this.#draw(state));
    }
    disconnectedCallback(): void {
      this.#off?.();
      this.#off = undefined;
    }

    #options(): { fetch?: typeof fetch; storage?: SessionStorageLike | null; key?: string } {
      const key = this.getAttribute("storage-key") ?? undefined;
      const kind = this.getAttribute("storage");
      const storage =
        this.storage !== undefined
          ? this.storage
          : kind === "none"
            ? null
            : kind === "local"
              ? globalThis.localStorage
              : undefined;
      return {
        ...(this.fetch ? { fetch: this.fetch } : {}),
        ...(storage !== undefined ? { storage } : {}),
        ...(key ? { key } : {}),
      };
    }

    /** What "Always allow" answers with: the `alwaysAllow` property, else the `remember` attribute's scope. */
    #always(): ((id: string) => Answer) | undefined {
      if (this.alwaysAllow) return this.alwaysAllow;
      const remember = this.getAttribute("remember");
      if (remember === "conversation" || remember === "owner") return (id) => answerApproval(id, { remember });
      return undefined;
    }

    /** Draws everything again, the cards too (new strings, a new alwaysAllow). */
    #redraw(): void {
      this.#ui = undefined;
      this.#draw(this.#session!.state);
    }

    #stop(): void {
      this.#session?.abort(); // stops reading at once, and asks the exchange to stop
    }

    #draw(state: RunSessionState): void {
      const s = mergeStrings(this.#strings);
      if (!this.#ui) {
        const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
        this.#ui = build(
          root,
          s,
          (text) => void this.send(text),
          () => this.#stop(),
        );
        this.#drawn = {};
        this.#cards.clear();
      }
      const ui = this.#ui;
      const busy = state.status === "streaming";
      const active = this.shadowRoot?.activeElement;
      // focus in what a run disables (or on Stop, which it hides) comes back when the run pauses
      const inRun = active && (ui.cards.contains(active) || active === ui.input || active === ui.send);
      if ((busy && inRun) || (active && active === ui.stop)) this.#refocus = true;
      if (state.messages !== this.#drawn.messages)
        ui.messages.replaceChildren(
          ...state.messages.map((m) =>
            h("div", { className: `msg ${m.role}`, part: `message ${m.role}-message` }, m.text),
          ),
        );
      ui.empty.hidden = Boolean(state.messages.length || state.requests.length || state.text);
      ui.live.textContent = state.text;
      ui.live.hidden = !state.text;
      const calls = state.calls;
      ui.calls.replaceChildren(...calls.map((c) => this.#call(c, s)));
      if (state.requests !== this.#drawn.requests || busy !== this.#drawn.busy)
        this.#syncCards(state.requests, busy, s);
      ui.status.replaceChildren(...(state.status === "error" && state.error ? [notice(state.error, s)] : []));
      ui.input.disabled = busy;
      ui.send.disabled = busy;
      ui.stop.hidden = !busy;
      if (!busy && this.#refocus) {
        this.#refocus = false;
        ((state.requests.length && firstControl(ui.cards)) || ui.input).focus();
      }
      this.#drawn = { ...this.#drawn, messages: state.messages, requests: state.requests, busy };
      ui.log.scrollTop = ui.log.scrollHeight;
    }

    #call(call: ToolCallView, s: ChatStrings): HTMLElement {
      const status =
        call.status === "preparing"
          ? s.toolPreparing
          : call.status === "running"
            ? s.toolRunning
            : call.isError
              ? s.toolFailed
              : s.toolDone;
      return h(
        "div",
        { className: `msg tool ${call.isError ? "failed" : call.status}`, part: "tool-call", "data-call": call.id },
        `⚙ ${call.name} — ${status}`,
      );
    }

    /** One card per open Request, kept while it stays open (what is typed into it survives a redraw). */
    #syncCards(requests: readonly PendingRequest[], busy: boolean, s: ChatStrings): void {
      const open = new Set(requests.map((r) => r.id));
      for (const id of [...this.#cards.keys()]) if (!open.has(id)) this.#cards.delete(id);
      const always = this.#always();
      const ordered = requests.map((request) => {
        let card = this.#cards.get(request.id);
        if (!card) {
          card = renderRequest(request, {
            strings: s,
            onAnswer: (answer, text) => void this.#session?.answer(answer, { text }),
            ...(always ? { alwaysAllow: always } : {}),
          });
          this.#cards.set(request.id, card);
        }
        card.inert = busy;
        card.setAttribute("aria-busy", String(busy));
        return card;
      });
      const box = this.#ui!.cards;
      if (ordered.length !== box.children.length || ordered.some((card, i) => box.children[i] !== card))
        box.replaceChildren(...ordered);
    }
  }
  customElements.define(tag, ToolnexusChat);
  return ToolnexusChat;
}
