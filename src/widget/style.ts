// The element's stylesheet. Colours, radii and the font come from custom properties a page sets on the
// element (`toolnexus-chat { --tnx-accent: teal }`); each piece is also a `::part` for anything else.
export const STYLE = `
:host { --tnx-bg: #fff; --tnx-ink: #1c2030; --tnx-muted: #555b6e; --tnx-line: #d5d8e1; --tnx-accent: #4338ca;
  --tnx-accent-ink: #fff; --tnx-user: #4338ca; --tnx-user-ink: #fff; --tnx-bubble: #eef0f6; --tnx-warn: #92400e;
  --tnx-ok: #0f6b45; --tnx-err: #b42318; --tnx-radius: 12px; --tnx-font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  display: flex; flex-direction: column; gap: 10px; font: var(--tnx-font); color: var(--tnx-ink); min-height: 320px; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
.log { flex: 1; background: var(--tnx-bg); border: 1px solid var(--tnx-line); border-radius: calc(var(--tnx-radius) + 4px);
  padding: 16px; overflow-y: auto; display: flex; flex-direction: column; gap: 10px; }
.messages, .calls, .cards, .status { display: flex; flex-direction: column; gap: 10px; }
.messages:empty, .calls:empty, .cards:empty, .status:empty { display: none; }
.msg { max-width: 82%; padding: 9px 13px; border-radius: 14px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: var(--tnx-user); color: var(--tnx-user-ink); border-bottom-right-radius: 4px; }
.msg.assistant { align-self: flex-start; background: var(--tnx-bubble); border-bottom-left-radius: 4px; }
.msg.tool { align-self: flex-start; color: var(--tnx-muted); font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; padding: 0 4px; }
.msg .stopped { display: block; margin-top: 2px; color: var(--tnx-muted); font-size: 12px; font-style: italic; }
.msg.notice { align-self: center; color: var(--tnx-muted); font-size: 14px; border: 1px dashed var(--tnx-line); }
.msg.error { align-self: stretch; max-width: none; color: var(--tnx-err); background: #fef3f2; border: 1px solid #fecdca; }
.empty { margin: auto; text-align: center; color: var(--tnx-muted); }
button { font: inherit; border-radius: 10px; border: 1px solid var(--tnx-line); background: var(--tnx-bg); color: var(--tnx-ink);
  padding: 7px 14px; cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--tnx-accent); }
button.primary { background: var(--tnx-accent); border-color: var(--tnx-accent); color: var(--tnx-accent-ink); }
button[aria-pressed="true"] { background: var(--tnx-bubble); border-color: var(--tnx-accent); font-weight: 600; }
button:disabled { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid var(--tnx-accent); outline-offset: 2px; }
input, select { font: inherit; color: var(--tnx-ink); background: var(--tnx-bg); padding: 7px 10px; border-radius: 10px;
  border: 1px solid #8a90a2; min-width: 0; }
.card { border: 1px solid var(--tnx-line); border-left: 4px solid var(--tnx-accent); border-radius: var(--tnx-radius); padding: 14px; }
.card.approval { border-left-color: var(--tnx-warn); }
.card.authorization { border-left-color: var(--tnx-ok); }
.card[inert] { opacity: .6; }
.card .kind { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--tnx-muted); margin-bottom: 4px; }
.card .agent { font-size: 13px; color: var(--tnx-muted); margin: 0 0 4px; }
.card .prompt { font-weight: 600; margin: 0 0 10px; white-space: pre-wrap; }
.card .row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.card .row + .row, .card .question + .row, .card .question + form { margin-top: 8px; }
.card .row > input { flex: 1; min-width: 160px; }
.card .args { margin: 0 0 10px; font-size: 13px; background: var(--tnx-bubble); padding: 8px 10px; border-radius: 8px; overflow-x: auto; }
.card .reason label { font-size: 13px; color: var(--tnx-muted); }
.card form.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px 14px; }
.card form.fields .row { grid-column: 1 / -1; }
.field { display: flex; flex-direction: column; gap: 4px; font-size: 14px; }
.field .label { font-weight: 600; }
.field .required { color: var(--tnx-err); }
.field .hint { color: var(--tnx-muted); font-size: 13px; }
.field input[type=checkbox] { align-self: flex-start; width: 18px; height: 18px; }
a.signin { display: inline-block; padding: 7px 14px; border-radius: 10px; background: var(--tnx-ok); color: #fff; text-decoration: none; }
form.composer { display: flex; gap: 8px; }
form.composer input { flex: 1; padding: 11px 14px; border-radius: var(--tnx-radius); }
`;
