// The demo's scenarios of double submits, text and errors, and a run's stream: double submit from two tabs and
// a double POST (one tool execution), prompts and model text as text, errors shown, a reload while the answer
// streams, Stop mid-answer, and the server stopped mid-stream.
import assert from "node:assert/strict";
import { card, followLive, idle, live, postJson, said, send, stats, textOf, waitWords } from "./steps.mjs";

export const STREAMING = [
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
