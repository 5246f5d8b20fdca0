// <toolnexus-chat endpoint="/api/run">: the chat element's class — its properties, attributes and life,
// each handed to its ChatView (chat-view.ts draws the chat). The class is made when chatElementClass is
// called (HTMLElement does not exist in a Worker or on a server), so importing this file touches no global.
import type { RunSession, RunSessionCall } from "../page/index";
import type { Answer } from "../types";
import { ChatView, type StorageOption } from "./chat-view";
import type { ChatStrings } from "./strings";

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
  /** Where the open run is kept: a Web Storage, or `null` for none; overrides the `storage` attribute ("session", "local", "none"). */
  storage: StorageOption | undefined;
  /** Shows "Always allow" on approvals, answering with what it returns (see RenderRequestOptions). */
  alwaysAllow: ((id: string) => Answer) | undefined;
  /** The session, once the element has connected. */
  readonly session: RunSession | undefined;
  /** Sends `text` as the user's message, as the composer does. */
  send(text: string): Promise<void>;
}

/** The properties a page may set before the element is defined (own properties then, hiding the accessors). */
const PROPERTIES = ["fetch", "storage", "alwaysAllow", "strings", "endpoint"] as const;

/** Moves the own properties a page set before the upgrade onto the element's accessors. */
function upgradeProperties(element: HTMLElement): void {
  const own = element as unknown as Record<string, unknown>;
  for (const key of PROPERTIES) {
    if (!Object.hasOwn(element, key)) continue;
    const value = own[key];
    delete own[key];
    own[key] = value;
  }
}

export function chatElementClass(): CustomElementConstructor {
  return class ToolnexusChat extends HTMLElement implements ChatElement {
    static observedAttributes = ["endpoint", "remember"];
    readonly #view = new ChatView(this);
    constructor() {
      super();
      upgradeProperties(this);
    }
    get fetch(): typeof fetch | undefined {
      return this.#view.fetch;
    }
    set fetch(value: typeof fetch | undefined) {
      this.#view.fetch = value;
    }
    get storage(): StorageOption | undefined {
      return this.#view.storage;
    }
    set storage(value: StorageOption | undefined) {
      this.#view.storage = value;
    }
    get alwaysAllow(): ((id: string) => Answer) | undefined {
      return this.#view.alwaysAllow;
    }
    set alwaysAllow(value: ((id: string) => Answer) | undefined) {
      this.#view.alwaysAllow = value;
      this.#view.redraw();
    }
    get endpoint(): string {
      return this.getAttribute("endpoint") ?? "";
    }
    set endpoint(value: string) {
      this.setAttribute("endpoint", value);
    }
    get strings(): Partial<ChatStrings> {
      return this.#view.strings;
    }
    set strings(value: Partial<ChatStrings>) {
      this.#view.strings = { ...value };
      this.#view.redraw();
    }
    get session(): RunSession | undefined {
      return this.#view.session;
    }
    send(text: string): Promise<void> {
      return this.#view.session?.send(text) ?? Promise.resolve();
    }
    connectedCallback(): void {
      this.#view.connect();
    }
    disconnectedCallback(): void {
      this.#view.disconnect();
    }
    attributeChangedCallback(name: string): void {
      if (name === "remember") return this.#view.redraw();
      if (this.isConnected) this.#view.connect(); // an element added before its endpoint was set starts now
    }
  };
}
