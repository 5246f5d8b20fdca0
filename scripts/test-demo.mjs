// The `npm start` demo, end to end in real Chromium (Debian's /usr/bin/chromium through Playwright):
// starts scripts/start.mjs on a free loopback port with a fresh --persist-to directory, then plays a
// user — question → "Chennai" → answer, reload mid-question, approve, decline, sign-in, double submit
// (one tool execution), model text as text, errors shown — and the same demo against an OpenAI-style
// endpoint configured by an env file (a scripted server on 127.0.0.1). Saves docs/demo.png.
// Prints `N passed, N failed`; always stops what it started.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
mkdirSync(join(fileURLToPath(new URL("..", import.meta.url)), "docs"), { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-demo-"));
const { check, fail, cleanup, finish, cleanups, counts } = createChecks("demo", { tmp, traceLines: 6 });

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** `npm start`'s script on a free port, fresh state; resolves with its base URL once it printed "ready". */
async function startDemo(name, extra = []) {
  const port = await freePort();
  const args = ["scripts/start.mjs", "--port", String(port), "--persist-to", join(tmp, `state-${name}`), ...extra];
  if (existsSync(join(root, "dist/toolnexus.js"))) args.push("--skip-build");
  const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const stop = () => stopProcess(child);
  cleanups.push(stop);
  for (let i = 0; i < 900 && !/demo ready: /.test(log); i++) {
    if (child.exitCode !== null) throw new Error(`start.mjs exited early (${child.exitCode}):\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!/demo ready: /.test(log)) throw new Error(`the demo did not become ready in 90 s:\n${log}`);
  return { base: `http://127.0.0.1:${port}`, log: () => log, stop };
}

async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(child.pid, "SIGTERM"); // start.mjs stops wrangler's process group, then exits
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 8000);
  await exited;
  clearTimeout(timer);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => cleanup().finally(() => process.exit(130)));

const stats = async (base) => (await fetch(`${base}/api/stats`)).json();

// --- the user's steps -----------------------------------------------------------------------------------

/** Resolves once the page is not streaming a run (its composer is enabled again). */
const idle = (page) => page.waitForFunction(() => !document.querySelector("#send").disabled);

async function send(page, text) {
  await idle(page);
  await page.locator("#message").fill(text);
  await page.locator("#send").click();
}
const card = (page, kind) => page.locator(`.card[data-kind="${kind}"]`);
const lastAssistant = (page) => page.locator(".msg.assistant").last();

// Each scenario continues the same conversation in one browser context (a user's session).
const SCENARIOS = [
  [
    "the page loads, imports /toolnexus.js and offers suggestions",
    async ({ demo, page, pageErrors }) => {
      await page.goto(demo.base);
      await page.getByRole("button", { name: "What's the weather?" }).waitFor();
      assert.match(await page.locator("#storage").textContent(), /Durable Object/);
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
      await page.locator(".msg.assistant", { hasText: "is booked for 19:30" }).waitFor();
      assert.match(await lastAssistant(page).textContent(), /Confirmation TNX-/);
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1);
    },
  ],

  [
    "question: the form shows the options, answering “Chennai” gives the forecast (screenshot)",
    async ({ page }) => {
      await send(page, "What's the weather?");
      const q = card(page, "question");
      await q.waitFor();
      assert.equal(await q.locator(".prompt").textContent(), "Which city should I check the weather for?");
      assert.deepEqual(await q.locator("button.option").allTextContents(), ["Chennai", "Berlin", "Lima"]);
      await q.getByPlaceholder("Type your answer…").fill("Chennai");
      await page.mouse.move(0, 0); // no hover highlight: the same screenshot on every run
      await page.screenshot({ path: join(root, "docs/demo.png") });
      await q.getByRole("button", { name: "Reply" }).click();
      await page.locator(".msg.assistant", { hasText: "Chennai: 31 °C" }).waitFor();
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
      await page.locator(".msg.assistant", { hasText: "Berlin: 12 °C" }).waitFor();
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
      await page.locator(".msg.assistant", { hasText: "No problem" }).waitFor();
      assert.equal((await stats(demo.base)).book_table, before.book_table);
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
      await page.locator(".msg.assistant", { hasText: "lunch with Priya" }).waitFor();
    },
  ],

  [
    "double submit from two tabs: the booking runs once, the other tab is told politely",
    async ({ demo, page, context }) => {
      const before = await stats(demo.base);
      await send(page, "Book a table for two tonight");
      await card(page, "approval").waitFor();
      const other = await context.newPage(); // same origin, same localStorage: the same open question
      await other.goto(demo.base);
      await card(other, "approval").waitFor();
      await Promise.all([page, other].map((p) => card(p, "approval").getByRole("button", { name: "Approve" }).click()));
      await Promise.all([page, other].map((p) => p.locator(".card").waitFor({ state: "detached" })));
      await Promise.all([page, other].map(idle)); // both streams finished
      const outcomes = await Promise.all(
        [page, other].map((p) => p.locator(".msg.assistant, .msg.notice, .msg.error").last().textContent()),
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
      const statuses = await page.evaluate(async () => {
        const { runId, request } = JSON.parse(localStorage.getItem("toolnexus-demo")).open;
        const body = JSON.stringify({ runId, answer: { id: request.id, ok: true, data: { output: "approved" } } });
        const post = () =>
          fetch("/api/answer", { method: "POST", headers: { "content-type": "application/json" }, body }).then(
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
      );
      assert.equal((await stats(demo.base)).book_table, before.book_table + 1);
      await page.reload();
    },
  ],

  [
    "model and tool text is rendered as text, never as HTML",
    async ({ page }) => {
      await send(page, "What's the weather?");
      const q = card(page, "question");
      await q.getByPlaceholder("Type your answer…").fill('<img src=x onerror="window.pwned=1">');
      await q.getByRole("button", { name: "Reply" }).click();
      await page.locator(".msg.assistant", { hasText: "<img src=x" }).waitFor();
      assert.equal(await page.locator("#log img").count(), 0);
      assert.equal(await page.evaluate(() => window.pwned), undefined);
    },
  ],

  [
    "errors are shown: a question that is no longer open, and a bad answer",
    async ({ demo, page, pageErrors }) => {
      await idle(page); // the page saves its state when a run ends; let it finish first
      await page.evaluate(() => {
        const s = JSON.parse(localStorage.getItem("toolnexus-demo"));
        s.open = {
          runId: "run-does-not-exist",
          request: { id: "pnd-x", kind: "approval", prompt: "Book a table for 2 at Dakshin, 19:30 tonight?" },
        };
        localStorage.setItem("toolnexus-demo", JSON.stringify(s));
      });
      await page.reload();
      await card(page, "approval").getByRole("button", { name: "Approve" }).click();
      await page.locator(".msg.notice", { hasText: "no longer open" }).waitFor();
      const bad = await fetch(`${demo.base}/api/answer`, {
        method: "POST",
        body: JSON.stringify({ runId: "run-x", answer: { ok: true } }),
      });
      assert.equal(bad.status, 400);
      assert.match((await bad.json()).error.message, /"id"/);
      const lostForm = await fetch(`${demo.base}/authorize`, { method: "POST", body: new URLSearchParams({}) });
      assert.deepEqual([lostForm.status, (await lostForm.json()).error.code], [400, "bad_request"]);
      assert.deepEqual(pageErrors, []);
    },
  ],
];

async function scenarios(demo, browser) {
  const context = await browser.newContext({ viewport: { width: 980, height: 760 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.setDefaultTimeout(15_000);

  for (const [name, fn] of SCENARIOS) await check(name, () => fn({ demo, page, context, pageErrors }));
  await context.close();
}

/** A scripted OpenAI-style endpoint: streams one fixed reply and records what it was sent. */
async function fakeEndpoint() {
  const seen = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const json = JSON.parse(body || "{}");
      seen.push({ url: req.url, auth: req.headers.authorization, body: json });
      if (json.messages?.at(-1)?.content === "fail") {
        // a provider that rejects the key, and echoes it back as some do
        return res
          .writeHead(401, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } }));
      }
      const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `${chunk({ content: "Hello from " }) + chunk({ content: "the endpoint." }) + chunk({}, { finish_reason: "stop" })}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, seen };
}

async function realEndpoint(browser) {
  const endpoint = await fakeEndpoint();
  const envFile = join(tmp, "dev.vars");
  writeFileSync(envFile, `BASE_URL=${endpoint.url}\nSTYLE=openai\nMODEL=fake-model-1\nAPI_KEY=sk-test-not-a-secret\n`);
  const demo = await startDemo("endpoint", ["--env-file", envFile]);
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  await check("with BASE_URL/MODEL/API_KEY set, the same demo talks to an OpenAI-style endpoint", async () => {
    await page.goto(demo.base);
    assert.match(await page.locator("#model").textContent(), /fake-model-1/);
    await send(page, "hi");
    await page.locator(".msg.assistant", { hasText: "Hello from the endpoint." }).waitFor();
    const call = endpoint.seen.at(-1);
    assert.equal(call.url, "/v1/chat/completions");
    assert.equal(call.auth, "Bearer sk-test-not-a-secret");
    assert.equal(call.body.model, "fake-model-1");
    assert.ok(call.body.tools.some((t) => t.function.name === "book_table"));
  });
  await check("a provider error is shown on the page, without the key", async () => {
    await send(page, "fail");
    const error = page.locator(".msg.error", { hasText: "401" });
    await error.waitFor();
    assert.doesNotMatch(await page.locator("#log").textContent(), /sk-test-not-a-secret/);
  });
  await page.close();
  await demo.stop();
}

let browser;
try {
  // an empty env file: a developer's .dev.vars (a real endpoint and key) must not leak into the test
  writeFileSync(join(tmp, "empty.env"), "");
  const demo = await startDemo("scripted", ["--env-file", join(tmp, "empty.env")]);
  console.log(`demo started on ${demo.base}`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  await scenarios(demo, browser);
  if (counts.failed) console.log(demo.log());
  await demo.stop();
  await realEndpoint(browser);
} catch (error) {
  fail("setup", error);
} finally {
  await browser?.close();
  await cleanup();
}
finish();
