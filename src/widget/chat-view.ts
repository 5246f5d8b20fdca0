// What the chat element does, apart from being an element: it starts the run session once there is an
// endpoint, draws every state the session reports into the element's shadow root, keeps one card per open
// Request (what is typed into a card survives a redraw) and gives focus back when a run pauses. The session
// it listens to restores the run when an open question's deadline passes (the continued run shows then).
import {
  answerApproval,
  createRunSession,
  type RunSession,
  type RunSessionState,
  type SessionStorageLike,
} from "../page/index";
import type { Answer, PendingRequest } from "../types";
import { buildUi, callView, messageView, noticeView, type Ui } from "./chat-ui";
import { renderRequest } from "./render-request";
import { type ChatStrings, mergeStrings } from "./strings";

/** Where the element keeps the open run: a Web Storage, `null` for none. */
export type StorageOption = SessionStorageLike | null;

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

/** The storage the `storage` attribute names: "none", "local", or (anything else) the default. */
function storageOfAttribute(kind: string | null): StorageOption | undefined {
  if (kind === "none") return null;
  if (kind === "local") return globalThis.localStorage;
  return undefined;
}

type Drawn = { messages?: unknown; requests?: unknown; busy?: boolean };

export class ChatView {
  fetch: typeof fetch | undefined;
  storage: StorageOption | undefined;
  alwaysAllow: ((id: string) => Answer) | undefined;
  strings: Partial<ChatStrings> = {};
  session: RunSession | undefined;
  readonly #host: HTMLElement;
  #off: (() => void) | undefined;
  #ui: Ui | undefined;
  #drawn: Drawn = {};
  #cards = new Map<string, HTMLElement>();
  #refocus = false;

  constructor(host: HTMLElement) {
    this.#host = host;
  }

  /** Starts the session once there is an endpoint (kept for the element's life), and listens to it. */
  connect(): void {
    if (!this.session) {
      const endpoint = this.#host.getAttribute("endpoint");
      if (!endpoint) return this.draw(NO_ENDPOINT);
      this.session = createRunSession({ endpoint, ...this.#options() });
      void this.session.restore();
    }
    this.#off?.();
    this.#off = this.session.subscribe((state) => this.draw(state));
  }

  /** Stops listening: the session sets no deadline timer for an element that is not shown. */
  disconnect(): void {
    this.#off?.();
    this.#off = undefined;
  }

  #options(): { fetch?: typeof fetch; storage?: StorageOption; key?: string } {
    const key = this.#host.getAttribute("storage-key") ?? undefined;
    const storage = this.storage !== undefined ? this.storage : storageOfAttribute(this.#host.getAttribute("storage"));
    return {
      ...(this.fetch ? { fetch: this.fetch } : {}),
      ...(storage !== undefined ? { storage } : {}),
      ...(key ? { key } : {}),
    };
  }

  /** What "Always allow" answers with: the `alwaysAllow` property, else the `remember` attribute's scope. */
  #always(): ((id: string) => Answer) | undefined {
    if (this.alwaysAllow) return this.alwaysAllow;
    const remember = this.#host.getAttribute("remember");
    if (remember === "conversation" || remember === "owner") return (id) => answerApproval(id, { remember });
    return undefined;
  }

  /** Draws everything again, the cards too (new strings, a new alwaysAllow). */
  redraw(): void {
    if (!this.session) return;
    this.#ui = undefined;
    this.draw(this.session.state);
  }

  /** Stop: the endpoint is asked to stop the exchange, which is read to its end (every tab shows the same text). */
  #stop(): void {
    void this.session?.stop();
  }

  #frame(s: ChatStrings): Ui {
    if (this.#ui) return this.#ui;
    const root = this.#host.shadowRoot ?? this.#host.attachShadow({ mode: "open" });
    this.#drawn = {};
    this.#cards.clear();
    this.#ui = buildUi(
      root,
      s,
      (text) => void this.session?.send(text),
      () => this.#stop(),
    );
    return this.#ui;
  }

  draw(state: RunSessionState): void {
    const s = mergeStrings(this.strings);
    const ui = this.#frame(s);
    const busy = state.status === "streaming";
    const active = this.#host.shadowRoot?.activeElement;
    // focus in what a run disables (or on Stop, which it hides) comes back when the run pauses
    const inRun = active && (ui.cards.contains(active) || active === ui.input || active === ui.send);
    if ((busy && inRun) || (active && active === ui.stop)) this.#refocus = true;
    if (state.messages !== this.#drawn.messages)
      ui.messages.replaceChildren(...state.messages.map((m) => messageView(m, s)));
    ui.empty.hidden = Boolean(state.messages.length || state.requests.length || state.text);
    ui.live.textContent = state.text;
    ui.live.hidden = !state.text;
    ui.calls.replaceChildren(...state.calls.map((c) => callView(c, s)));
    if (state.requests !== this.#drawn.requests || busy !== this.#drawn.busy) {
      this.#syncCards(state.requests, busy, s);
    }
    ui.status.replaceChildren(...(state.status === "error" && state.error ? [noticeView(state.error, s)] : []));
    ui.input.disabled = busy;
    ui.send.disabled = busy;
    ui.stop.hidden = !busy;
    if (!busy && this.#refocus) {
      this.#refocus = false;
      ((state.requests.length && firstControl(ui.cards)) || ui.input).focus();
    }
    this.#drawn = { messages: state.messages, requests: state.requests, busy };
    ui.log.scrollTop = ui.log.scrollHeight;
  }

  #card(request: PendingRequest, s: ChatStrings, always: ((id: string) => Answer) | undefined): HTMLElement {
    const known = this.#cards.get(request.id);
    if (known) return known;
    const card = renderRequest(request, {
      strings: s,
      onAnswer: (answer, text) => void this.session?.answer(answer, { text }),
      ...(always ? { alwaysAllow: always } : {}),
    });
    this.#cards.set(request.id, card);
    return card;
  }

  /** One card per open Request, kept while it stays open (what is typed into it survives a redraw). */
  #syncCards(requests: readonly PendingRequest[], busy: boolean, s: ChatStrings): void {
    const open = new Set(requests.map((r) => r.id));
    for (const id of [...this.#cards.keys()]) if (!open.has(id)) this.#cards.delete(id);
    const always = this.#always();
    const ordered = requests.map((request) => {
      const card = this.#card(request, s, always);
      card.inert = busy;
      card.setAttribute("aria-busy", String(busy));
      return card;
    });
    const box = this.#ui!.cards;
    if (ordered.length !== box.children.length || ordered.some((card, i) => box.children[i] !== card))
      box.replaceChildren(...ordered);
  }
}
