// The user's steps the demo's scenarios are written in: sending a prompt, waiting for the composer, the cards
// and the bubbles a page shows, the live text as it streams, the trip form, and the demo's own counters.
import assert from "node:assert/strict";

export const stats = async (base) => (await fetch(`${base}/api/stats`)).json();
/** What the demo's MCP server saw: `{ plans, declined, cancelled }`. */
export const mcpStats = async (demo) => {
  assert.ok(demo.mcp, "the demo printed its MCP server's URL");
  return (await fetch(`${demo.mcp}/stats`)).json();
};

// --- the user's steps -----------------------------------------------------------------------------------

/** Resolves once the page is not streaming a run (its composer is enabled again). */
export const idle = (page) =>
  page.waitForFunction(() => !document.querySelector("toolnexus-chat").shadowRoot.querySelector("#send").disabled);

export async function send(page, text) {
  await idle(page);
  await page.locator("#message").fill(text);
  await page.locator("#send").click();
}
export const card = (page, kind) => page.locator(`.card[data-kind="${kind}"]`);
export const lastAssistant = (page) => page.locator(".messages .msg.assistant").last();
// A reply once it is kept in the conversation — not the live bubble that shows text while it streams.
export const said = (page, text) => page.locator(".messages .msg.assistant", { hasText: text });
export const postJson = (base, body, type = "application/json") =>
  fetch(`${base}/api/run`, { method: "POST", headers: { "content-type": type }, body: JSON.stringify(body) });

// The bubble that shows the answer while it streams.
export const live = (page) => page.locator('[part~="live"]');
/** Resolves once the live bubble shows at least `n` words. */
export const waitWords = (page, n) =>
  page.waitForFunction(
    (n) => {
      const bubble = document.querySelector("toolnexus-chat").shadowRoot.querySelector('[part~="live"]');
      return (bubble?.textContent ?? "").split(/\s+/).filter(Boolean).length >= n;
    },
    n,
    { polling: 20 },
  );
/** Every text the live bubble shows until `done` appears (each change recorded in the page). */
export async function followLive(page, done) {
  await page.evaluate(() => {
    window.__seen = [];
    const record = () => {
      const bubble = document.querySelector("toolnexus-chat")?.shadowRoot?.querySelector('[part~="live"]');
      const text = bubble?.textContent ?? "";
      if (text && window.__seen.at(-1) !== text) window.__seen.push(text);
    };
    new MutationObserver(record).observe(document.querySelector("toolnexus-chat").shadowRoot, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    record();
  });
  await done.waitFor({ timeout: 30_000 });
  return page.evaluate(() => window.__seen);
}
/** The text a run handler's SSE response streamed: its `text` events' deltas, joined. */
export const textOf = (sse) =>
  sse
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)))
    .filter((event) => event.type === "text")
    .map((event) => event.delta)
    .join("");

export const FORM_LABELS = ["Travellers *", "Nights *", "Pace *", "Book a hotel too", "Anything else?"];

/** Fills the trip planner's form; checks the browser then finds it complete. */
export async function fillTrip(form, { travellers, nights, pace, hotel = false, notes }) {
  await form.getByLabel(/^Travellers/).fill(travellers);
  await form.getByLabel(/^Nights/).fill(nights);
  await form.getByLabel(/^Pace/).selectOption(pace);
  if (hotel) await form.getByLabel(/^Book a hotel/).check();
  if (notes !== undefined) await form.getByLabel(/^Anything else/).fill(notes);
  assert.equal(await form.locator("form").evaluate((f) => f.checkValidity()), true, "the form is complete");
}
