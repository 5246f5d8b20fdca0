// The demo's Worker configured by an env file (BASE_URL, STYLE, MODEL, API_KEY) against an OpenAI-style
// endpoint — a scripted server on 127.0.0.1 that records what it was sent: it talks to it, offers it the MCP
// server's tool too, and shows a provider's error without the key.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import { launchBrowser, startDemo } from "./launcher.mjs";
import { demoContext } from "./play.mjs";
import { said, send } from "./scenarios.mjs";

const ctx = demoContext("toolnexus-demo-endpoint-");
let endpoint;
let demo;
let page;
beforeAll(async () => {
  endpoint = await fakeEndpoint(ctx.cleanups);
  const envFile = join(ctx.tmp, "dev.vars");
  writeFileSync(envFile, `BASE_URL=${endpoint.url}\nSTYLE=openai\nMODEL=fake-model-1\nAPI_KEY=sk-test-not-a-secret\n`);
  const browser = await launchBrowser();
  ctx.cleanups.push(() => browser.close());
  demo = await startDemo(ctx, "endpoint", ["--env-file", envFile]);
  page = await browser.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await page?.close();
  await demo?.stop();
});

it("with BASE_URL/MODEL/API_KEY set, the same demo talks to an OpenAI-style endpoint", async () => {
  await page.goto(demo.base);
  assert.match(await page.locator("#model").textContent(), /fake-model-1/);
  await send(page, "hi");
  await said(page, "Hello from the endpoint.").waitFor();
  const call = endpoint.seen.at(-1);
  assert.equal(call.url, "/v1/chat/completions");
  assert.equal(call.auth, "Bearer sk-test-not-a-secret");
  assert.equal(call.body.model, "fake-model-1");
  assert.ok(call.body.tools.some((t) => t.function.name === "book_table"));
  assert.ok(
    call.body.tools.some((t) => t.function.name === "trips_plan_trip"),
    "the MCP server's tool is offered to the model too",
  );
});
it("a provider error is shown on the page, without the key", async () => {
  await send(page, "fail");
  const error = page.locator(".msg.error", { hasText: "401" });
  await error.waitFor();
  assert.doesNotMatch(await page.locator("#log").textContent(), /sk-test-not-a-secret/);
});

/** A scripted OpenAI-style endpoint: streams one fixed reply and records what it was sent. */
async function fakeEndpoint(cleanups) {
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
