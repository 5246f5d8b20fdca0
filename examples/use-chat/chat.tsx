// A `useChat` page, unchanged from what the AI SDK's docs show, talking to toolnexus (server.ts at
// /api/chat): approvals through addToolApprovalResponse, a question through addToolOutput, and
// `resume: true` so a reload picks up the exchange still streaming.
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from "ai";
import { useState } from "react";
import { createRoot } from "react-dom/client";

type ToolPart = {
  type: string;
  toolName?: string;
  toolCallId: string;
  state: string;
  input?: { prompt?: string; data?: { options?: string[] } };
  approval?: { id: string };
};

function Chat() {
  const [draft, setDraft] = useState("");
  const { messages, sendMessage, addToolApprovalResponse, addToolOutput } = useChat({
    id: "demo",
    resume: true,
    transport: new DefaultChatTransport({
      api: "/api/chat",
      prepareReconnectToStreamRequest: ({ id }) => ({ api: `/api/chat?chatId=${encodeURIComponent(id)}` }),
    }),
    sendAutomaticallyWhen: (chat) =>
      lastAssistantMessageIsCompleteWithApprovalResponses(chat) || lastAssistantMessageIsCompleteWithToolCalls(chat),
  });
  const tool = (part: ToolPart) => {
    if (part.state === "approval-requested")
      return (
        <p key={part.toolCallId}>
          Run {part.toolName}?{" "}
          <button type="button" onClick={() => addToolApprovalResponse({ id: part.approval!.id, approved: true })}>
            Approve
          </button>
          <button type="button" onClick={() => addToolApprovalResponse({ id: part.approval!.id, approved: false })}>
            Deny
          </button>
        </p>
      );
    if (part.toolName === "toolnexus_question" && part.state === "input-available")
      return (
        <p key={part.toolCallId}>
          {part.input?.prompt}{" "}
          {part.input?.data?.options?.map((option) => (
            <button
              type="button"
              key={option}
              onClick={() => addToolOutput({ tool: "toolnexus_question", toolCallId: part.toolCallId, output: option })}
            >
              {option}
            </button>
          ))}
        </p>
      );
    return (
      <p key={part.toolCallId} className="tool">
        {part.toolName}: {part.state}
      </p>
    );
  };
  const render = (message: UIMessage) => {
    const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    const tools = message.parts.filter((part) => part.type === "dynamic-tool") as unknown as ToolPart[];
    return (
      <div key={message.id}>
        {tools.map(tool)}
        {text ? <p className={message.role}>{text}</p> : null}
      </div>
    );
  };
  return (
    <main>
      {messages.map(render)}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: draft });
          setDraft("");
        }}
      >
        <input value={draft} onChange={(event) => setDraft(event.target.value)} placeholder="Say something" />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(<Chat />);
