// A stand-in for a provider's OAuth consent screen, so the `authorization` suspension can be tried
// offline. Allowing access records a grant for the Request id; the calendar tool checks it on resume.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const shell = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo sign-in</title>
<style>body{font:15px/1.5 system-ui,sans-serif;background:#f4f5f8;display:grid;place-items:center;min-height:100vh;margin:0;color:#1c2030}
main{background:#fff;border:1px solid #e3e5ec;border-radius:16px;padding:28px;max-width:420px}
button{font:inherit;padding:9px 16px;border-radius:10px;border:0;background:#0f7b4f;color:#fff;cursor:pointer}</style>
</head><body><main>${body}</main></body></html>`;

export function consentPage(requestId: string): string {
  return shell(`<h1>Demo Calendar</h1>
<p><b>Trip desk</b> would like to read your calendar.</p>
<form method="post"><input type="hidden" name="request" value="${esc(requestId)}"><button id="allow" type="submit">Allow access</button></form>`);
}

export function grantedPage(): string {
  return shell(`<h1>Access granted</h1><p id="granted">You can close this tab and press “continue” in the chat.</p>`);
}
