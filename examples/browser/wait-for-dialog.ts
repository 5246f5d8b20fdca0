// The loop inside a page: when a tool suspends, `waitFor` shows its Request in a <dialog>, and the
// run continues with the user's choice — no server, nothing stored.
import { answerDeclined, answerOutput, createInProcessClient, defineTool, pending } from "toolnexus";
import type { Answer, GenerateRequest, PendingRequest } from "toolnexus";

const dialog = document.querySelector<HTMLDialogElement>("#ask")!;

function waitFor(request: PendingRequest): Promise<Answer> {
  dialog.querySelector("p")!.textContent = request.prompt;
  dialog.showModal();
  return new Promise((resolve) => {
    const choose = () =>
      resolve(dialog.returnValue === "yes" ? answerOutput(request.id, "approved") : answerDeclined(request.id));
    dialog.addEventListener("close", choose, { once: true });
  });
}

const book = defineTool({
  name: "book_table",
  description: "Books a table once the user approves",
  execute: async (_args, ctx) =>
    ctx?.answer
      ? "Booked: a table for 2 at 19:30."
      : pending({ kind: "approval", prompt: "Book a table for 2 at 19:30?" }),
});

// A stand-in model (call the tool, then repeat its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "book_table", arguments: {} }] };
}

const client = createInProcessClient({ model: "demo", generate, waitFor });
document.querySelector("#go")!.addEventListener("click", async () => {
  const result = await client.run("Book me a table", { toolkit: [book] });
  document.querySelector("#out")!.textContent = result.text;
});
