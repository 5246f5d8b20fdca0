// A halted run that survives a reload: webStorage() keeps it in localStorage, the page remembers the
// open runId and Request, shows the question again after a reload, and resumes with the answer.
import { answerOutput, createInProcessClient, defineTool, pending, webStorage } from "toolnexus";
import type { GenerateRequest, PendingRequest } from "toolnexus";

const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx?.answer ? `Sunny in ${ctx.answer.data?.output}.` : pending({ kind: "input", prompt: "Which city?" }),
});
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "weather", arguments: {} }] };
}
const client = createInProcessClient({ model: "demo", generate, storage: webStorage() });

type Open = { runId: string; request: PendingRequest } | null;
const form = document.querySelector("form")!;
let open: Open = JSON.parse(localStorage.getItem("open-question") ?? "null");
function remember(next: Open) {
  open = next;
  localStorage.setItem("open-question", JSON.stringify(open));
  form.hidden = !open;
  form.querySelector("span")!.textContent = open?.request.prompt ?? "";
}
remember(open); // after a reload: the question is back

document.querySelector("#start")!.addEventListener("click", async () => {
  const halted = await client.run("What's the weather?", { toolkit: [weather] });
  remember({ runId: halted.runId!, request: halted.pending! });
});
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const result = await client.resume(open!.runId, answerOutput(open!.request.id, form.reply.value), {
    toolkit: [weather],
  });
  remember(null);
  document.querySelector("#out")!.textContent = result.text;
});
