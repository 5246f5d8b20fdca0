// The demo's scenarios, played in real Chromium as a user plays them — question → "Chennai" → answer, reload
// mid-question, approve, decline, two approval cards answered in reverse order, sign-in, the MCP tool's form
// elicitation (its fields, submitted, reloaded while open, declined; nothing private in the page), double
// submit (one tool execution), prompts and model text as text, a reload while the answer streams (it carries
// on, no word twice, the text an uninterrupted run gives), Stop mid-answer, the server stopped mid-stream (the
// error shows, a retry works once it is back), errors shown. Each continues the same conversation in one
// browser context (a user's session): `ctx` is `{ demo, page, pageErrors }`. Saves docs/demo.png.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "./launcher.mjs";

mkdirSync(join(root, "docs"), { recursive: true });

const stats = async (base) => (await fetch(`${base}/api/stats`)).json();
/** What the demo's MCP server saw: `{ plans, declined, cancelled }`. */
const mcpStats = async (demo) => {
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
const card = (page, kind) => page.locator(`.card[data-kind="${kind}"]`);
const lastAssistant = (page) => page.locator(".messages .msg.assistant").last();
// A reply once it is kept in the conversation — not the live bubble that shows text while it streams.
export const said = (page, text) => page.locator(".messages .msg.assistant", { hasText: text });
const postJson = (base, body, type = "application/json") =>
  fetch(`${base}/api/run`, { method: "POST", headers: { "content-type": type }, body: JSON.stringify(body) });

// The bubble that shows the answer while it streams.
const live = (page) => page.locator('[part~="live"]');
/** Resolves once the live bubble shows at least `n` words. */
const waitWords = (page, n) =>
  page.waitForFunction(
    (n) => {
      const bubble = document.querySelector("toolnexus-chat").shadowRoot.querySelector('[part~="live"]');
      return (bubble?.textContent ?? "").split(/\s+/).filter(Boolean).length >= n;
    },
    n,
    { polling: 20 },
  );
/** Every text the live bubble shows until `done` appears (each change recorded in the page). */
async function followLive(page, done) {
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
const textOf = (sse) =>
  sse
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)))
    .filter((event) => event.type === "text")
    .map((event) => event.delta)
    .join("");

const FORM_LABELS = ["Travellers *", "Nights *", "Pace *", "Book a hotel too", "Anything else?"];

/** Fills the trip planner's form; checks the browser then finds it complete. */
async function fillTrip(form, { travellers, nights, pace, hotel = false, notes }) {
  await form.getByLabel(/^Travellers/).fill(travellers);
  await form.getByLabel(/^Nights/).fill(nights);
  await form.getByLabel(/^Pace/).selectOption(pace);
  if (hotel) await form.getByLabel(/^Book a hotel/).check();
  if (notes !== undefined) await form.getByLabel(/^Anything else/).fill(notes);
  assert.equal(await form.locator("form").evaluate((f) => f.checkValidity()), true, "the form is complete");
}

// Each scenario continues the same conversation in one browser context (a user's session).
export const SCENARIOS = [
  [
    "the page loads, imports the chat element from /toolnexus-widget.js and offers suggestions",
    async ({ demo, page, pageErrors }) => {
      await page.goto(demo.base);
      await page.getByRole("button", { name: "What's the weather?" }).waitFor();
      await page.getByRole("button", { name: "Plan a trip to Lisbon" }).waitFor();
      assert.match(await page.locator("#storage").textContent(), demo.storageName);
      assert.deepEqual(pageErrors, []);
    },
  ],

  [
    "approve: the booking runs once, after the approval",
    async ({ demo, page }) => {
      const before = await stats(demo.base);
      await send(page, "Book a table for two tonight");
      await card(page, "approval").waitFor();
      assert.equal((await stats(demo.base)).book_table, before.book_table, "nothing is booked before the approval");
      await card(page, "approval").getByRole("button", { name: "Approve" }).click();
      await said(page, "is booked for 19:30").waitFor();
      assert.match(await lastAssistant(page).textContent(), /Confirmation TNX-/);
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1);
    },
  ],

  [
    "question: the form shows the options, answering “Chennai” gives the forecast",
    async ({ demo, page }) => {
      await send(page, "What's the weather?");
      const q = card(page, "question");
      await q.waitFor();
      assert.equal(await q.locator(".prompt").textContent(), "Which city should I check the weather for?");
      assert.deepEqual(await q.locator("button.option").allTextContents(), ["Chennai", "Berlin", "Lima"]);
      await q.getByPlaceholder("Type your answer…").fill("Chennai");
      if (demo.name === "workerd") {
        await page.mouse.move(0, 0); // no hover highlight: the same screenshot on every run
        await page.screenshot({ path: join(root, "docs/demo.png") });
      }
      await q.getByRole("button", { name: "Reply" }).click();
      await said(page, "Chennai: 31 °C").waitFor();
      assert.equal(await page.locator(".card").count(), 0);
    },
  ],

  [
    "reload while a question is open shows it again, and answering resumes the run",
    async ({ page }) => {
      await send(page, "Is it going to rain?");
      await card(page, "question").waitFor();
      await page.reload();
      const q = card(page, "question");
      await q.waitFor();
      assert.equal(await q.locator(".prompt").textContent(), "Which city should I check the weather for?");
      await q.getByRole("button", { name: "Berlin" }).click();
      await said(page, "Berlin: 12 °C").waitFor();
      assert.ok(
        (await page.locator(".msg.user").allTextContents()).includes("Book a table for two tonight"),
        "the conversation survived the reload",
      );
    },
  ],

  [
    "decline: nothing is booked and the assistant says so",
    async ({ demo, page }) => {
      const before = await stats(demo.base);
      await send(page, "Please reserve dinner for two");
      await card(page, "approval").getByRole("button", { name: "Decline" }).click();
      await said(page, "No problem").waitFor();
      assert.equal((await stats(demo.base)).book_table, before.book_table);
    },
  ],

  [
    "two approvals at once: both cards show; answered in reverse order, each tool runs once",
    async ({ demo, page }) => {
      const before = await stats(demo.base);
      await send(page, "Book dinner and a taxi");
      const cards = card(page, "approval");
      await cards.nth(1).waitFor();
      assert.deepEqual(await cards.locator(".prompt").allTextContents(), [
        "Book a table for 2 at Dakshin, 19:30 tonight?",
        "Book a taxi at 19:00 to Dakshin?",
      ]);
      await cards.nth(1).getByRole("button", { name: "Approve" }).click(); // the taxi first
      await page.locator(".card", { hasText: "taxi" }).waitFor({ state: "detached" });
      await idle(page);
      assert.equal(await cards.count(), 1, "the table's card is still open");
      assert.equal((await stats(demo.base)).book_table, before.book_table, "the table waits for its own approval");
      await cards.first().getByRole("button", { name: "Approve" }).click();
      await said(page, "All set").waitFor();
      assert.match(await lastAssistant(page).textContent(), /table for 2 at Dakshin is booked.*taxi to Dakshin/s);
      const after = await stats(demo.base);
      assert.deepEqual([after.book_table, after.book_taxi], [before.book_table + 1, before.book_taxi + 1]);
    },
  ],

  [
    "authorization: a sign-in link, consent in a new tab, then the calendar is read",
    async ({ page }) => {
      await send(page, "What's on my calendar?");
      const auth = card(page, "authorization");
      await auth.waitFor();
      const [popup] = await Promise.all([
        page.waitForEvent("popup"),
        auth.getByRole("link", { name: /Sign in/ }).click(),
      ]);
      await popup.getByRole("button", { name: "Allow access" }).click();
      await popup.locator("#granted").waitFor();
      await popup.close();
      await auth.getByRole("button", { name: /continue/ }).click();
      await said(page, "lunch with Priya").waitFor();
    },
  ],

  [
    "MCP form: “Plan a trip” shows the elicitation as a form of its schema's fields, the required ones marked",
    async ({ page }) => {
      await send(page, "Plan a trip to Lisbon");
      const form = card(page, "input");
      await form.waitFor();
      assert.equal(await form.locator(".prompt").textContent(), "A few details for your trip to Lisbon");
      assert.deepEqual(await form.locator(".field .label").allTextContents(), FORM_LABELS);
      const controls = await form.locator(".field").evaluateAll((fields) =>
        fields.map((f) => {
          const c = f.querySelector("input, select");
          return [c.name, c.tagName === "SELECT" ? "select" : c.type, c.required];
        }),
      );
      assert.deepEqual(controls, [
        ["travellers", "number", true],
        ["nights", "number", true],
        ["pace", "select", true],
        ["hotel", "checkbox", false],
        ["notes", "text", false],
      ]);
      assert.deepEqual(await form.locator("select option").allTextContents(), [
        "Choose…",
        "relaxed",
        "balanced",
        "packed",
      ]);
      assert.deepEqual(await form.getByRole("button").allTextContents(), ["Submit", "Decline"]);
      assert.equal(
        await form.locator("form").evaluate((f) => f.checkValidity()),
        false,
        "the required fields are empty",
      );
    },
  ],

  [
    "MCP form: no requestState or other MCP state reaches the page — stream, reload answer, stored session",
    async ({ demo, page }) => {
      await idle(page);
      const kept = await page.evaluate(() => localStorage.getItem("toolnexus:run-session"));
      const { runId } = JSON.parse(kept);
      const inspected = await (await fetch(`${demo.base}/api/run?runId=${encodeURIComponent(runId)}`)).text();
      const streamed = await (await postJson(demo.base, { prompt: "Plan a trip to Lima" })).text();
      assert.match(inspected, /"kind":"input".*"schema".*"travellers"/s, inspected); // the form is there …
      assert.match(streamed, /event: pending[\s\S]*"schema".*"travellers"/, streamed);
      for (const [where, text] of Object.entries({ kept, inspected, streamed })) {
        assert.doesNotMatch(text, /requestState|pendingState|inputRequests|idFloor|"state"|v1\.[\w-]{20,}/, where); // … its state is not
        assert.ok(!text.includes(demo.mcp), `${where} names the MCP server's address`);
      }
    },
  ],

  [
    "MCP form: filled in and submitted, the run resumes and the MCP tool completes once",
    async ({ demo, page }) => {
      const before = await mcpStats(demo);
      await send(page, "Plan a trip to Lisbon");
      const form = card(page, "input");
      await form.waitFor();
      await fillTrip(form, {
        travellers: "2",
        nights: "3",
        pace: "balanced",
        hotel: true,
        notes: "<b>window seats</b>",
      });
      await form.getByRole("button", { name: "Submit" }).click();
      await said(page, "3 nights in Lisbon").waitFor();
      assert.match(
        await lastAssistant(page).textContent(),
        /^Your trip is planned! Planned 3 nights in Lisbon for 2 travellers, balanced pace, hotel booked\. Itinerary TRIP-/,
      );
      await page
        .locator(".msg.user", {
          hasText:
            "Travellers: 2 · Nights: 3 · Pace: balanced · Book a hotel too: yes · Anything else?: <b>window seats</b>",
        })
        .waitFor();
      assert.equal(await page.locator(".card").count(), 0);
      assert.equal(await page.locator("#log b").count(), 0, "what was typed into the form is shown as text");
      const after = await mcpStats(demo);
      assert.deepEqual(after.plans.slice(before.plans.length), [
        {
          destination: "Lisbon",
          travellers: 2,
          nights: 3,
          pace: "balanced",
          hotel: true,
          notes: "<b>window seats</b>",
        },
      ]);
    },
  ],

  [
    "MCP form: a reload while the form is open shows it again, and submitting it still completes the tool",
    async ({ demo, page }) => {
      const before = await mcpStats(demo);
      await send(page, "Plan a trip to Kyoto");
      await card(page, "input").waitFor();
      await idle(page);
      await page.reload();
      const form = card(page, "input");
      await form.waitFor();
      assert.equal(await form.locator(".prompt").textContent(), "A few details for your trip to Kyoto");
      assert.deepEqual(await form.locator(".field .label").allTextContents(), FORM_LABELS);
      await fillTrip(form, { travellers: "1", nights: "5", pace: "relaxed" });
      await form.getByRole("button", { name: "Submit" }).click();
      await said(page, "5 nights in Kyoto").waitFor();
      assert.match(await lastAssistant(page).textContent(), /for 1 traveller, relaxed pace\. Itinerary TRIP-/);
      const after = await mcpStats(demo);
      assert.deepEqual(after.plans.slice(before.plans.length), [
        { destination: "Kyoto", travellers: 1, nights: 5, pace: "relaxed", hotel: false },
      ]);
    },
  ],

  [
    "MCP form: declined — the assistant says nothing was planned, and the server saw the decline",
    async ({ demo, page }) => {
      const before = await mcpStats(demo);
      await send(page, "Plan a trip to Berlin");
      await card(page, "input").waitFor();
      const earlier = await said(page, "haven't planned anything").count(); // a form left open earlier is declined by a new prompt
      await card(page, "input").getByRole("button", { name: "Decline" }).click();
      await said(page, "haven't planned anything").nth(earlier).waitFor();
      const after = await mcpStats(demo);
      assert.deepEqual(after.declined.slice(before.declined.length), ["Berlin"]);
      assert.equal(after.plans.length, before.plans.length);
      assert.equal(await page.locator(".card").count(), 0);
    },
  ],

  [
    "double submit from two tabs: the booking runs once, the other tab is told politely",
    async ({ demo, page, context }) => {
      const before = await stats(demo.base);
      await send(page, "Book a table for two tonight");
      await card(page, "approval").waitFor();
      await idle(page);
      const other = await context.newPage(); // same origin, same localStorage: the same open question
      await other.goto(demo.base);
      await card(other, "approval").waitFor();
      await Promise.all([page, other].map((p) => card(p, "approval").getByRole("button", { name: "Approve" }).click()));
      await Promise.all([page, other].map((p) => p.locator(".card").waitFor({ state: "detached" })));
      await Promise.all([page, other].map(idle)); // both streams finished
      const outcomes = await Promise.all(
        [page, other].map((p) => p.locator(".messages .msg.assistant, .status .msg").last().textContent()),
      );
      assert.ok(
        outcomes.some((t) => /is booked/.test(t)),
        `one tab shows the booking: ${outcomes}`,
      );
      assert.ok(
        outcomes.every((t) => /is booked|already answered/.test(t)),
        `the other shows the outcome or a polite notice: ${outcomes}`,
      );
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1);
      await other.close();
    },
  ],

  [
    "double POST of one answer: one tool execution, the second gets the outcome or 409",
    async ({ demo, page }) => {
      const before = await stats(demo.base);
      await send(page, "Book a table for two tonight");
      await card(page, "approval").waitFor();
      await idle(page);
      const statuses = await page.evaluate(async () => {
        const { runId } = JSON.parse(localStorage.getItem("toolnexus:run-session"));
        const id = document
          .querySelector("toolnexus-chat")
          .shadowRoot.querySelector(".card")
          .getAttribute("data-request");
        const body = JSON.stringify({ runId, answer: { id, ok: true, data: { output: "approved" } } });
        const post = () =>
          fetch("/api/run", { method: "POST", headers: { "content-type": "application/json" }, body }).then(
            async (r) => [r.status, await r.text()],
          );
        return Promise.all([post(), post()]);
      });
      assert.ok(
        statuses.some(([s, t]) => s === 200 && /is booked/.test(t)),
        JSON.stringify(statuses).slice(0, 400),
      );
      assert.ok(
        statuses.every(([s, t]) => (s === 200 && /is booked/.test(t)) || (s === 409 && /run_conflict/.test(t))),
        JSON.stringify(statuses).slice(0, 400),
      );
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1);
      await page.reload();
    },
  ],

  [
    "prompts, answers and model text are rendered as text, never as HTML",
    async ({ page }) => {
      const evil = '<img src=x onerror="window.pwned=1">';
      await send(page, evil);
      await page.locator(".msg.user", { hasText: evil }).waitFor();
      await said(page, "scripted demo assistant").last().waitFor();
      await send(page, "What's the weather?");
      const q = card(page, "question");
      await q.getByPlaceholder("Type your answer…").fill(evil);
      await q.getByRole("button", { name: "Reply" }).click();
      await said(page, "<img src=x").waitFor();
      await page.reload(); // and again when the kept conversation is drawn after a reload
      await page.locator(".msg.user", { hasText: evil }).first().waitFor();
      assert.equal(await page.locator("#log img").count(), 0);
      assert.equal(await page.evaluate(() => window.pwned), undefined);
    },
  ],

  [
    "errors are shown: a kept run that is gone, a bad answer, a body that is not JSON",
    async ({ demo, page, pageErrors }) => {
      await idle(page);
      await page.evaluate(() => {
        const s = JSON.parse(localStorage.getItem("toolnexus:run-session"));
        localStorage.setItem("toolnexus:run-session", JSON.stringify({ ...s, runId: "run-does-not-exist" }));
      });
      await page.reload();
      await idle(page);
      assert.equal(await page.locator(".card").count(), 0, "no card for a run the server does not have");
      const bad = await postJson(demo.base, { runId: "run-x", answer: { ok: true } });
      assert.equal(bad.status, 400);
      const body = await bad.json();
      assert.equal(body.error.code, "invalid_answer");
      assert.match(body.error.message, /"id"/);
      const text = await postJson(demo.base, { prompt: "hi" }, "text/plain");
      assert.deepEqual([text.status, (await text.json()).error.code], [415, "unsupported_media_type"]);
      const lostForm = await fetch(`${demo.base}/authorize`, { method: "POST", body: new URLSearchParams({}) });
      assert.deepEqual([lostForm.status, (await lostForm.json()).error.code], [400, "bad_request"]);
      assert.deepEqual(pageErrors, []);
    },
  ],

  [
    "reload while the answer streams: the text carries on and ends as an uninterrupted run's, no word twice",
    async ({ demo, page, pageErrors }) => {
      await idle(page);
      const messagesBefore = await page.locator(".messages .msg").count();
      // the same prompt in a run of its own, read to its end by a client that never leaves
      const reference = postJson(demo.base, { prompt: "Tell me a story" }).then(async (r) => textOf(await r.text()));
      await send(page, "Tell me a story");
      await waitWords(page, 6);
      const before = await live(page).textContent();
      await page.reload();
      const told = said(page, "The end.");
      const seen = await followLive(page, told);
      const whole = await reference;
      assert.match(whole, /^Once upon a time .* The end\.$/s, "the uninterrupted run tells the whole story");
      assert.equal(await told.count(), 1, "one reply, shown once");
      assert.equal(await told.textContent(), whole, "the reloaded page ends with the uninterrupted run's text");
      assert.ok(whole.startsWith(before), "what was shown before the reload is the start of it");
      for (const text of seen)
        assert.ok(whole.startsWith(text), `the live text after the reload grows, never repeats: ${text}`);
      assert.ok(
        seen.some((t) => t.length > before.length && t.length < whole.length),
        "the text kept streaming after the reload",
      );
      assert.equal(await page.locator(".messages .msg").count(), messagesBefore + 2, "one prompt and one reply");
      assert.deepEqual(pageErrors, []);
    },
  ],

  [
    "Stop ends a running answer: the run ends incomplete, the text so far is kept and the composer comes back",
    async ({ page }) => {
      await send(page, "Tell me a story");
      await waitWords(page, 4);
      const stopped = page.waitForResponse(
        (r) =>
          r.url().endsWith("/api/run") && r.request().method() === "POST" && /"stop":true/.test(r.request().postData()),
      );
      await page.locator("#stop").click();
      const answer = await stopped;
      assert.equal(answer.status(), 202, "the server was asked to stop, and took it");
      await idle(page);
      assert.equal(await page.locator("#stop").isHidden(), true, "Stop goes away");
      const cut = page.locator(".messages .msg.assistant").last();
      const shown = (await cut.textContent()) ?? "";
      assert.match(shown, /^Once upon a time/, "the text streamed so far is kept");
      assert.doesNotMatch(shown, /The end\./, "the story was cut short");
      // the conversation takes the next prompt at once (the stopped run no longer holds it) …
      await send(page, "What's the weather in Lima?");
      await said(page, "Lima:").waitFor();
      // … and the stopped answer never went on to its end
      assert.equal(await said(page, "The end.").count(), 1, "only the earlier uninterrupted story has an end");
      assert.ok(
        (await page.locator(".messages .msg.assistant", { hasText: shown }).count()) >= 1,
        "the cut text is still shown",
      );
    },
  ],

  [
    "the server stopped mid-stream: the page shows the error, and a retry works once it is back",
    async (ctx) => {
      const { page } = ctx;
      await send(page, "Check my flight");
      await page.locator(".msg.assistant", { hasText: "Checking your flight" }).waitFor(); // the stream is open
      await ctx.demo.stop();
      await page.locator(".msg.error").waitFor();
      await idle(page);
      assert.match(await page.locator(".msg.error").textContent(), /Something went wrong: toolnexus: /);
      ctx.demo = await ctx.demo.restart();
      // the cut-off exchange holds the conversation until its lease passes (seconds): until then the page
      // says so, and the user tries again, as told
      const deadline = Date.now() + 30_000;
      for (;;) {
        await send(page, "Check my flight");
        await idle(page);
        if (await said(page, "is on time").count()) break;
        assert.match(await page.locator(".msg.notice").textContent(), /still being answered, or was cut off/);
        assert.ok(Date.now() < deadline, "the conversation was still busy 30 s after the restart");
        await page.waitForTimeout(2_000);
      }
      assert.equal(await page.locator(".msg.error").count(), 0, "the error is gone after the retry");
    },
  ],
];
