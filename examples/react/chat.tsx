// A chat in React on toolnexus/react: the hook gives the run's state and its actions; each open request is
// drawn by its kind (Approve / Always allow / Decline, option buttons, or a text field) and answered with the
// answer helpers. "Always allow" remembers the approval for the conversation (answerApproval's remember).
// Several requests may be open at once; they are answered in any order. After a reload, the hook restores
// the conversation and its open requests on mount.
import { useState, type FormEvent, type ReactNode } from "react";
import { answerApproval, answerDeclined, answerOutput, type PendingRequest } from "toolnexus";
import { useRunSession, type UseRunSessionOptions } from "toolnexus/react";

type Answering = ReturnType<typeof useRunSession>["answer"];

function options(request: PendingRequest): string[] {
  const list = (request.data as { options?: unknown } | undefined)?.options;
  return Array.isArray(list) ? list.map((o) => String((o as { label?: unknown })?.label ?? o)) : [];
}

function RequestCard({ request, answer }: { request: PendingRequest; answer: Answering }) {
  const [typed, setTyped] = useState("");
  const reply = (text: string) => answer(answerOutput(request.id, text), { text });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) void reply(typed.trim());
  };
  const choices = options(request);
  let controls: ReactNode;
  if (request.kind === "approval")
    controls = (
      <>
        <button type="button" onClick={() => void answer(answerApproval(request.id), { text: "Approved" })}>
          Approve
        </button>
        <button
          type="button"
          onClick={() =>
            void answer(answerApproval(request.id, { remember: "conversation" }), { text: "Always allowed" })
          }
        >
          Always allow
        </button>
        <button type="button" onClick={() => void answer(answerDeclined(request.id), { text: "Declined" })}>
          Decline
        </button>
      </>
    );
  else if (choices.length)
    controls = choices.map((choice) => (
      <button key={choice} type="button" onClick={() => void reply(choice)}>
        {choice}
      </button>
    ));
  else
    controls = (
      <form onSubmit={submit}>
        <input aria-label="Your answer" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
        <button type="submit">Answer</button>
      </form>
    );
  return (
    <fieldset aria-label={request.prompt}>
      <legend>{request.prompt}</legend>
      {controls}
    </fieldset>
  );
}

export function Chat(props: UseRunSessionOptions) {
  const { state, send, answer, stop } = useRunSession(props);
  const [prompt, setPrompt] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(prompt);
    setPrompt("");
  };
  return (
    <main>
      <ol aria-label="Messages">
        {state.messages.map((m, i) => (
          <li key={String(i)} className={m.role}>
            {m.text}
          </li>
        ))}
        {state.text && <li className="assistant streaming">{state.text}</li>}
      </ol>
      {state.requests.map((r) => (
        <RequestCard key={r.id} request={r} answer={answer} />
      ))}
      {state.error && <p role="alert">{state.error.message}</p>}
      <form onSubmit={submit}>
        <input aria-label="Message" value={prompt} onChange={(e) => setPrompt(e.currentTarget.value)} />
        {state.status === "streaming" ? (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
      <p data-testid="status">{state.status}</p>
    </main>
  );
}
