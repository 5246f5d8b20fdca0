// The same widget in React: the session is an external store, so useSyncExternalStore is the whole binding
// (its snapshot is a new object on change and the same one otherwise). Written with createElement to need
// no JSX setup; in a .tsx file it reads the same with tags.
import { createElement as h, useEffect, useState, useSyncExternalStore } from "react";
import { answerDeclined, answerOutput, createRunSession, type RunSession } from "toolnexus";

export function useRunSession(endpoint: string): RunSession {
  const [session] = useState(() => createRunSession({ endpoint }));
  useSyncExternalStore(session.subscribe, () => session.state); // re-renders on every change
  useEffect(() => void session.restore(), [session]);
  return session;
}

export function Chat() {
  const session = useRunSession("/api/run");
  const { messages, text, requests, error, status } = session.state;
  return h(
    "div",
    null,
    ...messages.map((m, i) => h("p", { key: i, className: m.role }, m.text)),
    text && h("p", { className: "assistant" }, text),
    ...requests.map((r) =>
      h(
        "div",
        { key: r.id },
        r.prompt,
        h(
          "button",
          { type: "button", onClick: () => session.answer(answerOutput(r.id, "approved"), { text: "Approved" }) },
          "Approve",
        ),
        h(
          "button",
          { type: "button", onClick: () => session.answer(answerDeclined(r.id), { text: "Declined" }) },
          "Decline",
        ),
      ),
    ),
    error && h("p", { className: "error" }, error.message),
    h("input", {
      disabled: status === "streaming",
      onKeyDown: (e: { key: string; currentTarget: { value: string } }) =>
        e.key === "Enter" && session.send(e.currentTarget.value),
    }),
  );
}
