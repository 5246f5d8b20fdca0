// The page half: createRunSession talks to /api/run and holds the state; this draws it (as text, never
// HTML) and turns every open Request into Approve / Decline buttons. A reload finds the question again.
import { answerDeclined, answerOutput, createRunSession, type PendingRequest } from "toolnexus";

const session = createRunSession({ endpoint: "/api/run" }); // keeps the open run in sessionStorage
const log = document.querySelector("#log")!;
const form = document.querySelector("form")!;
const el = (tag: string, text: string, className = "") =>
  Object.assign(document.createElement(tag), { textContent: text, className });

function card(request: PendingRequest): HTMLElement {
  const box = el("div", request.prompt, "request");
  const yes = el("button", "Approve"),
    no = el("button", "Decline");
  yes.onclick = () => session.answer(answerOutput(request.id, "approved"), { text: "Approved" });
  no.onclick = () => session.answer(answerDeclined(request.id), { text: "Declined" });
  box.append(yes, no);
  return box;
}

session.subscribe((s) =>
  log.replaceChildren(
    ...s.messages.map((m) => el("p", m.text, m.role)),
    ...(s.text ? [el("p", s.text, "assistant")] : []),
    ...s.requests.map(card),
    ...(s.error ? [el("p", s.error.message, "error")] : []),
  ),
);
form.onsubmit = (e) => {
  e.preventDefault();
  session.send(new FormData(form).get("prompt") as string);
  form.reset();
};
session.restore();
