// The demo's chat page: HTML + CSS here, the script (built on createRunSession) in ./page-script.ts. Everything the model or a
// tool says is put on the page with textContent — never as HTML. The script is allowed by a nonce.
import { PAGE_SCRIPT } from "./page-script";

export interface PageInfo {
  nonce: string;
  model: string;
  storage: string;
}

const STYLE = `
:root { --bg:#f4f5f8; --card:#fff; --ink:#1c2030; --muted:#6b7185; --line:#e3e5ec; --accent:#4f46e5; --accent-ink:#fff;
  --user:#4f46e5; --ok:#0f7b4f; --warn:#b45309; --err:#b42318; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); min-height: 100vh; display: flex; justify-content: center; }
.app { width: min(760px, 100%); display: flex; flex-direction: column; min-height: 100vh; padding: 24px 16px; gap: 12px; }
header { display: flex; align-items: flex-start; gap: 12px; }
header h1 { font-size: 20px; margin: 0; }
header .sub { color: var(--muted); font-size: 13px; }
header .grow { flex: 1; }
.badges { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 6px; }
.badge { font-size: 12px; border: 1px solid var(--line); background: var(--card); border-radius: 999px; padding: 2px 10px; color: var(--muted); }
button { font: inherit; border-radius: 10px; border: 1px solid var(--line); background: var(--card); padding: 8px 14px; cursor: pointer; color: var(--ink); }
button:hover:not(:disabled) { border-color: var(--accent); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
button:disabled { opacity: .55; cursor: default; }
main { flex: 1; background: var(--card); border: 1px solid var(--line); border-radius: 16px; padding: 18px; overflow-y: auto;
  display: flex; flex-direction: column; gap: 10px; box-shadow: 0 1px 2px rgba(16,24,40,.05); min-height: 380px; }
.messages, .cards, .status { display: flex; flex-direction: column; gap: 10px; }
.messages:empty, .cards:empty, .status:empty, .msg[hidden] { display: none; }
.msg { max-width: 82%; padding: 9px 13px; border-radius: 14px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: var(--user); color: #fff; border-bottom-right-radius: 4px; }
.msg.assistant { align-self: flex-start; background: #eef0f6; border-bottom-left-radius: 4px; }
.msg.tool { align-self: flex-start; color: var(--muted); font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; padding: 0 4px; }
.msg.tool.failed { color: var(--warn); }
.msg.notice { align-self: center; color: var(--muted); font-size: 13px; background: #f6f7fa; border: 1px dashed var(--line); }
.msg.error { align-self: stretch; max-width: none; color: var(--err); background: #fef3f2; border: 1px solid #fecdca; }
.empty { margin: auto; text-align: center; color: var(--muted); }
.empty .chips { display: flex; gap: 8px; justify-content: center; flex-wrap: wrap; margin-top: 12px; }
.card { align-self: stretch; border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 12px; padding: 14px; background: #fafaff; }
.card.approval { border-left-color: var(--warn); background: #fffbf5; }
.card.authorization { border-left-color: var(--ok); background: #f6fef9; }
.card .kind { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin-bottom: 4px; }
.card .prompt { font-weight: 600; margin: 0 0 10px; white-space: pre-wrap; }
.card .row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.card .row + .row { margin-top: 8px; }
.card input { flex: 1; min-width: 180px; font: inherit; padding: 8px 12px; border-radius: 10px; border: 1px solid var(--line); }
.card form.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px 14px; }
.card form.fields .row { grid-column: 1 / -1; }
.card .field { display: flex; flex-direction: column; gap: 4px; font-size: 13px; }
.card .field .label { font-weight: 600; }
.card .field .required { color: var(--err); }
.card .field .hint { color: var(--muted); font-size: 12px; }
.card .field input, .card .field select { min-width: 0; font: inherit; font-size: 15px; padding: 7px 10px; border-radius: 10px; border: 1px solid var(--line); background: var(--card); }
.card .field input[type=checkbox] { align-self: flex-start; width: 18px; height: 18px; }
.card a.signin { display: inline-block; padding: 8px 14px; border-radius: 10px; background: var(--ok); color: #fff; text-decoration: none; }
form.composer { display: flex; gap: 8px; }
form.composer input { flex: 1; font: inherit; padding: 12px 14px; border-radius: 12px; border: 1px solid var(--line); background: var(--card); }
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
  <main id="log" aria-live="polite"></main>
  <form class="composer" id="composer">
    <input id="message" name="message" autocomplete="off" placeholder="Ask about the weather, book a table, read your calendar, plan a trip…" aria-label="Message">
    <button class="primary" id="send" type="submit">Send</button>
  </form>
  <footer><span id="stats">Tool executions: —</span><span>Reload at any time — an open question comes back.</span></footer>
</div>
<script type="module" nonce="${esc(info.nonce)}">${PAGE_SCRIPT}</script>
</body>
</html>`;
}
