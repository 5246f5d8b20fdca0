// The chat page's script (plain browser JavaScript, served inline). The chat itself is <toolnexus-chat>, the
// SDK's chat element, loaded from its single file /toolnexus-widget.js: it streams each run from /api/run,
// keeps the open run in localStorage (storage="local": a reload — or a second tab — finds the question
// again) and draws every open Request as a card that fits its kind. This script only adds the demo's
// suggestions, the tool-execution counter and the "New chat" button.
export const PAGE_SCRIPT = `
import { defineChatElement } from "/toolnexus-widget.js";

defineChatElement();
const chat = document.querySelector("toolnexus-chat");
chat.strings = { messagePlaceholder: "Ask about the weather, book a table, read your calendar, plan a trip…" };
const KEY = chat.getAttribute("storage-key") ?? "toolnexus:run-session";

for (const chip of document.querySelectorAll(".chips button")) chip.onclick = () => chat.send(chip.textContent);

async function refreshStats() {
  try {
    const stats = await (await fetch("/api/stats")).json();
    document.querySelector("#stats").textContent =
      "Tool executions — " + Object.entries(stats).map(([k, v]) => k + ": " + v).join(" · ");
  } catch {}
}

let streaming = false;
chat.session.subscribe((state) => {
  if (streaming && state.status !== "streaming") refreshStats();
  streaming = state.status === "streaming";
});
document.querySelector("#reset").onclick = () => { localStorage.removeItem(KEY); location.reload(); };
refreshStats();
chat.shadowRoot.querySelector("#message").focus();
`;
