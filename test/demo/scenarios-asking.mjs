// The demo's scenarios where the page asks and the user answers: the page loads, approve, a question and its
// answer, a reload mid-question, decline, an agent's approval answered after a reload, two approval cards in reverse order, sign-in, and the MCP tool's form
// elicitation (its fields, submitted, reloaded while open, declined). Saves docs/demo.png.
import assert from "node:assert/strict";
import { join } from "node:path";
import { root } from "./launcher.mjs";
import { FORM_LABELS, card, fillTrip, idle, lastAssistant, mcpStats, postJson, said, send, stats } from "./steps.mjs";

export const ASKING = [
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
    "an agent: the planner delegates to the booker, whose approval (the card names it) is answered after a reload",
    async ({ demo, page }) => {
      const before = await stats(demo.base);
      await page.goto(`${demo.base}/?agent`);
      await send(page, "Book dinner for two tonight");
      const asked = card(page, "approval");
      await asked.waitFor();
      assert.equal(await asked.locator('[part~="agent"]').textContent(), "Asked by booker");
      await page.reload();
      const again = card(page, "approval");
      await again.waitFor();
      assert.equal(await again.locator('[part~="agent"]').textContent(), "Asked by booker");
      await again.getByRole("button", { name: "Approve" }).click();
      await said(page, "The booker says: Done! Your table for 2 at Dakshin is booked").waitFor();
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1, "the booking tool ran once");
      await page.goto(demo.base); // the other scenarios talk to /api/run
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
];
