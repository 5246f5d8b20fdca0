// The chat element's pieces of DOM: the frame (log, messages, live text, calls, cards, status, composer),
// a message, a tool call's row and the notice of a session error. Each is drawn from the state alone.
import type { RunSessionCall, RunSessionError, RunSessionMessage } from "../page/index";
import { h } from "./dom";
import type { ChatStrings } from "./strings";
import { STYLE } from "./style";

export interface Ui {
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

function composer(ui: Ui, onSend: (text: string) => void): HTMLFormElement {
  const form = h("form", { className: "composer", part: "composer" }, ui.input, ui.send, ui.stop);
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = ui.input.value.trim();
    if (!text) return;
    ui.input.value = "";
    onSend(text);
  };
  return form;
}

/** Draws the element's frame into `root` and returns its parts. */
export function buildUi(root: ShadowRoot, s: ChatStrings, onSend: (text: string) => void, onStop: () => void): Ui {
  const div = (className: string, part: string) => h("div", { className, part });
  const ui: Ui = {
    log: h("div", { className: "log", id: "log", part: "log", role: "log", "aria-label": s.logLabel, tabIndex: 0 }),
    messages: div("messages", "messages"),
    empty: h("div", { className: "empty", part: "empty" }, h("slot", { name: "empty" }, s.empty)),
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
  ui.log.append(ui.messages, ui.empty, ui.live, ui.calls, ui.cards, ui.status);
  root.replaceChildren(h("style", {}, STYLE), ui.log, composer(ui, onSend));
  return ui;
}

/** A message of the conversation; a stopped exchange's text ends with a muted mark. */
export function messageView(m: RunSessionMessage, s: ChatStrings): HTMLElement {
  const mark = m.stopped ? h("span", { className: "stopped", part: "stopped" }, s.stopped) : undefined;
  return h("div", { className: `msg ${m.role}`, part: `message ${m.role}-message` }, m.text, mark);
}

const CALL_STATUS: Record<RunSessionCall["status"], keyof ChatStrings> = {
  preparing: "toolPreparing",
  running: "toolRunning",
  waiting: "toolWaiting",
  done: "toolDone",
};

/** A tool call's row: its name and where it is. */
export function callView(call: RunSessionCall, s: ChatStrings): HTMLElement {
  const status = call.isError ? s.toolFailed : s[CALL_STATUS[call.status]];
  return h(
    "div",
    { className: `msg tool ${call.isError ? "failed" : call.status}`, part: "tool-call", "data-call": call.id },
    `⚙ ${call.name} — ${status}`,
  );
}

/** The polite notice for the errors a second tab or a retry causes, by the conflict's reason or the code. */
function politeNotice(error: RunSessionError, s: ChatStrings): string | undefined {
  if (error.code === "run_conflict") return error.reason === "busy" ? s.busy : s.conflict;
  if (error.code === "run_not_found" || error.code === "answer_mismatch") return s.gone;
  return undefined;
}

/** The notice for a session error: polite for what another tab or a retry causes, an alert otherwise. */
export function noticeView(error: RunSessionError, s: ChatStrings): HTMLElement {
  const polite = politeNotice(error, s);
  if (polite) return h("div", { className: "msg notice", part: "notice" }, polite);
  return h("div", { className: "msg error", part: "error", role: "alert" }, `${s.error} ${error.message}`);
}
