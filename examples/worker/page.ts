// The demo's chat page: HTML + CSS here, the chat itself is <toolnexus-chat> (the script is in ./page-script.ts). Everything the model or a
// tool says is put on the page with textContent — never as HTML. The script is allowed by a nonce.
import { PAGE_SCRIPT } from "./page-script";

const SUGGESTIONS = [
  "What's the weather?",
  "Book a table for two tonight",
  "Book dinner and a taxi",
  "What's on my calendar?",
  "Plan a trip to Lisbon",
  "Tell me a story",
];

export interface PageInfo {
  nonce: string;
  model: string;
  storage: string;
  /** The run endpoint the chat talks to (default `/api/run`; `/api/agent` for the planner agent). */
  endpoint?: string;
}

const STYLE = `
:root { --bg:#f4f5f8; --ink:#1c2030; --muted:#555b6e; --line:#d5d8e1; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); min-height: 100vh; display: flex; justify-content: center; }
.app { width: min(760px, 100%); display: flex; flex-direction: column; height: 100vh; padding: 24px 16px; gap: 12px; }
header { display: flex; align-items: flex-start; gap: 12px; }
header h1 { font-size: 20px; margin: 0; }
header .sub { color: var(--muted); font-size: 13px; }
header .grow { flex: 1; }
.badges { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 6px; }
.badge { font-size: 12px; border: 1px solid var(--line); background: #fff; border-radius: 999px; padding: 2px 10px; color: var(--muted); }
button { font: inherit; border-radius: 10px; border: 1px solid var(--line); background: #fff; padding: 8px 14px; cursor: pointer; color: var(--ink); }
button:hover { border-color: #4338ca; }
toolnexus-chat { flex: 1; min-height: 0; }
toolnexus-chat::part(log) { box-shadow: 0 1px 2px rgba(16,24,40,.05); }
.chips { display: flex; gap: 8px; justify-content: center; flex-wrap: wrap; margin-top: 12px; }
footer { color: var(--muted); font-size: 12px; display: flex; justify-content: space-between; gap: 12px; flex-wrap: wrap; }
`;

/** The chat page, with the model and storage named in the header. */
export function chatPage(info: PageInfo): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolnexus demo — a chat whose tools can wait for you</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<div class="app">
  <header>
    <div class="grow">
      <h1>Trip desk</h1>
      <div class="sub">A toolnexus demo: tools that stop and ask, runs that wait in storage until you answer.</div>
      <div class="badges"><span class="badge" id="model">model: ${esc(info.model)}</span><span class="badge" id="storage">runs halt into: ${esc(info.storage)}</span></div>
    </div>
    <button id="reset" type="button" title="Forget this conversation">New chat</button>
  </header>
  <toolnexus-chat endpoint="${esc(info.endpoint ?? "/api/run")}" storage="local"${info.endpoint ? ` storage-key="toolnexus:agent"` : ""}>
    <div slot="empty">
      <div>Ask for something a tool can only do with your help.</div>
      <div class="chips">${SUGGESTIONS.map((s) => `<button type="button">${esc(s)}</button>`).join("")}</div>
    </div>
  </toolnexus-chat>
  <footer><span id="stats">Tool executions: —</span><span>Reload at any time — an open question comes back.</span></footer>
</div>
<script type="module" nonce="${esc(info.nonce)}">${PAGE_SCRIPT}</script>
</body>
</html>`;
}
