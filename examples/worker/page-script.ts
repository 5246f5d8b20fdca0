// The chat page's script (plain browser JavaScript, served inline). It imports the SDK's single-file
// bundle from /toolnexus.js, reads the Worker's event stream with readEventStream, renders a
// suspended tool's Request as a form that fits its kind, and builds the reply with answerOutput /
// answerDeclined. The conversation and the open question live in localStorage, so a reload brings
// the question back. Model and tool text is only ever set with textContent.
export const PAGE_SCRIPT = String.raw`
import { readEventStream, answerOutput, answerDeclined } from "/toolnexus.js";

const KEY = "toolnexus-demo";
const $ = (sel) => document.querySelector(sel);
const log = $("#log"), form = $("#composer"), input = $("#message"), send = $("#send");
let state = load();
let card = null;

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && typeof s.chatId === "string" && Array.isArray(s.log)) return s;
  } catch {}
  return { chatId: crypto.randomUUID(), log: [], open: null };
}
const save = () => localStorage.setItem(KEY, JSON.stringify(state));

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(entry) {
  $(".empty")?.remove();
  const node = el("div", "msg " + entry.role + (entry.failed ? " failed" : ""), entry.text);
  log.insertBefore(node, card);
  log.scrollTop = log.scrollHeight;
  return node;
}
function add(role, text, extra) {
  const entry = { role, text, ...extra };
  state.log.push(entry);
  save();
  return { entry, node: show(entry) };
}

function emptyState() {
  const box = el("div", "empty");
  box.append(el("div", "", "Ask for something a tool can only do with your help."));
  const chips = el("div", "chips");
  for (const text of ["What's the weather?", "Book a table for two tonight", "What's on my calendar?"]) {
    const chip = el("button", "", text);
    chip.type = "button";
    chip.onclick = () => { input.value = text; form.requestSubmit(); };
    chips.append(chip);
  }
  box.append(chips);
  log.append(box);
}

function setBusy(busy) {
  send.disabled = busy;
  input.disabled = busy;
  if (!busy) input.focus();
}

async function post(path, body) {
  return fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}
async function problem(res) {
  try {
    const body = await res.json();
    if (body && body.error) return body.error;
  } catch {}
  return { code: "http_" + res.status, message: "The server answered " + res.status + "." };
}

const brief = (value, max) => { const s = typeof value === "string" ? value : JSON.stringify(value); return s.length > max ? s.slice(0, max) + "…" : s; };

const argsText = (args) =>
  args && typeof args === "object" && !Array.isArray(args)
    ? Object.entries(args).map(([k, v]) => k + ": " + JSON.stringify(v)).join(", ")
    : JSON.stringify(args);

// Plays one run's events onto the page: text, tool activity, then either the answer or a question card.
async function consume(res) {
  let current = null;
  try {
    for await (const event of readEventStream(res)) {
      if (event.type === "text") {
        current ??= add("assistant", "");
        current.entry.text += event.delta;
        current.node.textContent = current.entry.text;
      } else if (event.name === "question") {
        // the builtin that asks the user: its card and the user's reply already show it
      } else if (event.type === "tool_call") {
        add("tool", "⚙ " + event.name + "(" + brief(argsText(event.args), 90) + ")");
      } else if (event.type === "tool_result") {
        add("tool", "↳ " + event.name + ": " + brief(event.output, 140), { failed: event.isError });
      } else if (event.type === "done") {
        const result = event.result;
        if (result.status === "pending") {
          state.open = { runId: result.runId, request: result.pending };
          renderCard();
        } else if (!current && result.text) {
          add("assistant", result.text);
        }
        if (result.status === "incomplete") add("error", "The run stopped early (" + result.limit + ").");
      }
    }
  } catch (error) {
    add("error", "Something went wrong: " + (error && error.message ? error.message : String(error)));
  } finally {
    save();
    refreshStats();
  }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const message = input.value.trim();
  if (!message) return;
  input.value = "";
  if (state.open) { state.open = null; renderCard(); add("notice", "The open question was left unanswered."); }
  add("user", message);
  setBusy(true);
  try {
    const res = await post("/api/chat", { chatId: state.chatId, message });
    if (res.ok) await consume(res);
    else add("error", (await problem(res)).message);
  } catch (error) {
    add("error", "Could not reach the demo server: " + error.message);
  } finally {
    setBusy(false);
  }
});

// --- the question card: one form per Request kind ---------------------------------------------------

// the builtin question tool's prompt lists its options; shown as buttons, the question alone reads better
function promptOf(request) {
  const questions = request.data?.questions;
  const texts = Array.isArray(questions) ? questions.map((q) => q && q.question).filter((q) => typeof q === "string") : [];
  return texts.length ? texts.join("\n") : request.prompt;
}

function optionsOf(request) {
  const data = request.data || {};
  const options = Array.isArray(data.options) ? data.options : data.questions?.[0]?.options;
  return Array.isArray(options) ? options.filter((o) => typeof o === "string").slice(0, 8) : [];
}

function button(text, className, onClick) {
  const b = el("button", className, text);
  b.type = "button";
  b.onclick = onClick;
  return b;
}

function renderCard() {
  card?.remove();
  card = null;
  save();
  const open = state.open;
  if (!open || !open.request) return;
  const { request } = open;
  const labels = { question: "Question", input: "Needs your input", approval: "Needs your approval", authorization: "Sign-in needed" };
  card = el("section", "card " + request.kind);
  card.setAttribute("data-kind", request.kind);
  card.append(el("div", "kind", labels[request.kind] || request.kind), el("p", "prompt", promptOf(request)));
  const answer = (ok, output, label) => submit(open, ok ? answerOutput(request.id, output) : answerDeclined(request.id), label);
  const row = el("div", "row");
  if (request.kind === "approval") {
    row.append(button("Approve", "primary", () => answer(true, "approved", "Approved")), button("Decline", "", () => answer(false, "", "Declined")));
  } else if (request.kind === "authorization") {
    const url = safeUrl(request.url);
    if (url) { const a = el("a", "signin", "Sign in ↗"); a.href = url; a.target = "_blank"; a.rel = "noopener"; row.append(a); }
    row.append(button("I've signed in — continue", "primary", () => answer(true, "signed in", "Signed in")), button("Cancel", "", () => answer(false, "", "Cancelled sign-in")));
  } else {
    for (const option of optionsOf(request)) row.append(button(option, "option", () => answer(true, option, option)));
    const text = el("input");
    text.placeholder = "Type your answer…";
    text.setAttribute("aria-label", "Your answer");
    const reply = () => text.value.trim() && answer(true, text.value.trim(), text.value.trim());
    text.onkeydown = (e) => { if (e.key === "Enter") reply(); };
    const second = el("div", "row");
    second.append(text, button("Reply", "primary", reply), button("Skip", "", () => answer(false, "", "Skipped")));
    card.append(row, second);
    log.append(card);
    log.scrollTop = log.scrollHeight;
    return;
  }
  card.append(row);
  log.append(card);
  log.scrollTop = log.scrollHeight;
}

function safeUrl(url) {
  try {
    const u = new URL(url, location.href);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : "";
  } catch { return ""; }
}

async function submit(open, answer, label) {
  for (const control of card?.querySelectorAll("button, input") ?? []) control.disabled = true;
  setBusy(true);
  try {
    const res = await post("/api/answer", { chatId: state.chatId, runId: open.runId, answer });
    if (!res.ok) {
      const err = await problem(res);
      if (err.code === "run_conflict" || err.code === "run_not_found") {
        state.open = null;
        renderCard();
        add("notice", err.code === "run_conflict"
          ? "That question was already answered (perhaps in another tab) — nothing ran twice."
          : "That question is no longer open — it was answered or it expired.");
      } else {
        add("error", err.message);
        renderCard();
      }
      return;
    }
    state.open = null;
    renderCard();
    add("user", label);
    await consume(res);
  } catch (error) {
    add("error", "Could not reach the demo server: " + error.message);
    renderCard();
  } finally {
    setBusy(false);
  }
}

async function refreshStats() {
  try {
    const stats = await (await fetch("/api/stats")).json();
    $("#stats").textContent = "Tool executions — " + Object.entries(stats).map(([k, v]) => k + ": " + v).join(" · ");
  } catch {}
}

$("#reset").onclick = () => { localStorage.removeItem(KEY); location.reload(); };

for (const entry of state.log) show(entry);
if (!state.log.length) emptyState();
renderCard();
refreshStats();
input.focus();
`;
