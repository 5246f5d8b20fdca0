// The chat page's script (plain browser JavaScript, served inline). It imports the SDK's single-file
// bundle from /toolnexus.js and is built on createRunSession: the session streams each run from
// /api/run, keeps the open run in localStorage (so a reload — or a second tab — finds the question
// again) and holds every piece of state; this script only draws it. Each open Request is a card that fits
// its kind — a Request with `data.schema` (an MCP form elicitation) is a form built from that schema; the
// reply is built with answerOutput / answerForm / answerDeclined. Text is only ever set with textContent.
export const PAGE_SCRIPT = String.raw`
import { createRunSession, answerOutput, answerForm, answerDeclined } from "/toolnexus.js";

const KEY = "toolnexus:run-session";
const session = createRunSession({ endpoint: "/api/run", storage: localStorage, key: KEY });
const $ = (sel) => document.querySelector(sel);
const log = $("#log"), form = $("#composer"), input = $("#message"), send = $("#send");

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, className, onClick) {
  const b = el("button", className, text);
  b.type = "button";
  b.onclick = onClick;
  return b;
}

function emptyState() {
  const box = el("div", "empty");
  box.append(el("div", "", "Ask for something a tool can only do with your help."));
  const chips = el("div", "chips");
  for (const text of ["What's the weather?", "Book a table for two tonight", "Book dinner and a taxi", "What's on my calendar?", "Plan a trip to Lisbon"]) {
    chips.append(button(text, "", () => { input.value = text; form.requestSubmit(); }));
  }
  box.append(chips);
  return box;
}

// --- the cards: one per open Request, a form that fits its kind ----------------------------------------

const LABELS = { question: "Question", input: "Needs your input", approval: "Needs your approval", authorization: "Sign-in needed" };

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

function safeUrl(url) {
  try {
    const u = new URL(url, location.href);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : "";
  } catch { return ""; }
}

// --- a form from a Request's data.schema (flat JSON Schema: string, number, integer, boolean, enum) -------

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

function schemaOf(request) {
  const schema = request.data && request.data.schema;
  return isObject(schema) && isObject(schema.properties) ? schema : undefined;
}

// [value, label] pairs of an enum field: "enum" (labels from "enumNames"), or "oneOf" of { const, title }
function choicesOf(spec) {
  if (Array.isArray(spec.enum)) {
    const names = Array.isArray(spec.enumNames) ? spec.enumNames : [];
    return spec.enum.filter((v) => typeof v === "string").map((v, i) => [v, typeof names[i] === "string" ? names[i] : v]);
  }
  if (Array.isArray(spec.oneOf) && spec.oneOf.every((o) => isObject(o) && typeof o.const === "string"))
    return spec.oneOf.map((o) => [o.const, typeof o.title === "string" ? o.title : o.const]);
  return undefined;
}

const INPUT_TYPES = { email: "email", uri: "url", date: "date" };

// one labelled control; read() gives its value, or undefined when it is left empty
function field(name, spec, required) {
  const box = el("label", "field");
  const title = el("span", "label", typeof spec.title === "string" && spec.title ? spec.title : name);
  if (required) title.append(el("span", "required", " *"));
  box.append(title);
  const choices = choicesOf(spec);
  let control, read;
  if (choices) {
    control = el("select");
    control.append(Object.assign(el("option", "", "Choose…"), { value: "" }));
    for (const [value, label] of choices) control.append(Object.assign(el("option", "", label), { value }));
    if (choices.some(([v]) => v === spec.default)) control.value = spec.default;
    read = () => control.value || undefined;
  } else if (spec.type === "boolean") {
    control = el("input");
    control.type = "checkbox";
    control.checked = spec.default === true;
    read = () => control.checked;
  } else if (spec.type === "number" || spec.type === "integer") {
    control = el("input");
    control.type = "number";
    control.step = spec.type === "integer" ? "1" : "any";
    if (typeof spec.minimum === "number") control.min = String(spec.minimum);
    if (typeof spec.maximum === "number") control.max = String(spec.maximum);
    if (typeof spec.default === "number") control.value = String(spec.default);
    read = () => (control.value === "" ? undefined : Number(control.value));
  } else {
    control = el("input");
    control.type = INPUT_TYPES[spec.format] || "text";
    if (typeof spec.minLength === "number") control.minLength = spec.minLength;
    if (typeof spec.maxLength === "number") control.maxLength = spec.maxLength;
    if (typeof spec.default === "string") control.value = spec.default;
    read = () => (control.value.trim() === "" ? undefined : control.value.trim());
  }
  control.name = name;
  control.required = required && spec.type !== "boolean"; // a required checkbox would have to be ticked
  box.append(control);
  if (typeof spec.description === "string" && spec.description) box.append(el("span", "hint", spec.description));
  return { box, read, label: title.firstChild.textContent };
}

function formCard(box, request, schema) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const form = el("form", "fields");
  const fields = Object.entries(schema.properties)
    .filter(([, spec]) => isObject(spec))
    .map(([name, spec]) => ({ name, ...field(name, spec, required.has(name)) }));
  form.append(...fields.map((f) => f.box));
  const submit = el("button", "primary", "Submit");
  submit.type = "submit";
  const row = el("div", "row");
  row.append(submit, button("Decline", "", () => session.answer(answerDeclined(request.id), { text: "Declined the form" })));
  form.append(row);
  form.onsubmit = (e) => {
    e.preventDefault(); // the browser has checked required fields, numbers' bounds and lengths
    const values = {};
    const said = [];
    for (const f of fields) {
      const value = f.read();
      if (value === undefined) continue;
      values[f.name] = value;
      said.push(f.label + ": " + (value === true ? "yes" : value === false ? "no" : value));
    }
    session.answer(answerForm(request.id, values), { text: said.join(" · ") || "Sent the form" });
  };
  box.append(form);
}

function card(request, busy) {
  const box = el("section", "card " + request.kind);
  box.setAttribute("data-kind", request.kind);
  box.setAttribute("data-request", request.id);
  box.append(el("div", "kind", LABELS[request.kind] || request.kind), el("p", "prompt", promptOf(request)));
  const schema = schemaOf(request);
  if (schema) {
    formCard(box, request, schema);
    for (const control of box.querySelectorAll("button, input, select")) control.disabled = busy;
    return box;
  }
  const reply = (ok, output, label) =>
    session.answer(ok ? answerOutput(request.id, output) : answerDeclined(request.id), { text: label });
  const row = el("div", "row");
  box.append(row);
  if (request.kind === "approval") {
    row.append(button("Approve", "primary", () => reply(true, "approved", "Approved")), button("Decline", "", () => reply(false, "", "Declined")));
  } else if (request.kind === "authorization") {
    const url = safeUrl(request.url);
    if (url) { const a = el("a", "signin", "Sign in ↗"); a.href = url; a.target = "_blank"; a.rel = "noopener"; row.append(a); }
    row.append(button("I've signed in — continue", "primary", () => reply(true, "signed in", "Signed in")), button("Cancel", "", () => reply(false, "", "Cancelled sign-in")));
  } else {
    for (const option of optionsOf(request)) row.append(button(option, "option", () => reply(true, option, option)));
    const text = el("input");
    text.placeholder = "Type your answer…";
    text.setAttribute("aria-label", "Your answer");
    const typed = () => text.value.trim() && reply(true, text.value.trim(), text.value.trim());
    text.onkeydown = (e) => { if (e.key === "Enter") typed(); };
    const second = el("div", "row");
    second.append(text, button("Reply", "primary", typed), button("Skip", "", () => reply(false, "", "Skipped")));
    box.append(second);
  }
  for (const control of box.querySelectorAll("button, input")) control.disabled = busy;
  return box;
}

// --- drawing the session's state --------------------------------------------------------------------------

const NOTICES = {
  run_conflict: "That question was already answered (perhaps in another tab) — nothing ran twice.",
  run_not_found: "That question is no longer open — it was answered or it expired.",
  answer_mismatch: "That question is no longer open — it was answered or it expired.",
};
// a new message while the conversation's previous exchange still holds it (or was cut off by a restart)
const BUSY = "Your previous message is still being answered, or was cut off — try again in a few seconds.";

let drawn = { messages: null, requests: null, busy: null };
const messages = el("div", "messages"), live = el("div", "msg assistant"), cards = el("div", "cards"), status = el("div", "status");
log.append(messages, live, cards, status);

function draw(state) {
  const busy = state.status === "streaming";
  if (state.messages !== drawn.messages) {
    messages.replaceChildren(...state.messages.map((m) => el("div", "msg " + m.role, m.text)));
    if (!state.messages.length && !state.requests.length) messages.append(emptyState());
  }
  live.textContent = state.text;
  live.hidden = !state.text;
  if (state.requests !== drawn.requests || busy !== drawn.busy) cards.replaceChildren(...state.requests.map((r) => card(r, busy)));
  status.replaceChildren();
  if (state.status === "error" && state.error) {
    const busyConversation = state.error.code === "run_conflict" && / is busy /.test(state.error.message);
    const notice = busyConversation ? BUSY : NOTICES[state.error.code];
    status.append(el("div", notice ? "msg notice" : "msg error", notice || "Something went wrong: " + state.error.message));
  }
  send.disabled = busy;
  input.disabled = busy;
  if (drawn.busy && !busy) { input.focus(); refreshStats(); }
  drawn = { messages: state.messages, requests: state.requests, busy };
  log.scrollTop = log.scrollHeight;
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const message = input.value.trim();
  if (!message) return;
  input.value = "";
  session.send(message);
});

async function refreshStats() {
  try {
    const stats = await (await fetch("/api/stats")).json();
    $("#stats").textContent = "Tool executions — " + Object.entries(stats).map(([k, v]) => k + ": " + v).join(" · ");
  } catch {}
}

$("#reset").onclick = () => { localStorage.removeItem(KEY); location.reload(); };

session.subscribe(draw);
session.restore();
refreshStats();
input.focus();
`;
