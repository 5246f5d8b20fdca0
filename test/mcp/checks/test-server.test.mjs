// toolnexus/mcp against the test server (server SDK 2.4, test/mcp/servers/) on Node, started on 127.0.0.1 by the
// globalSetup: list and call, schemas, results, inline elicitation (form, two in one round, URL), decline and
// cancel, secrets, and `needsApproval` (inline and durable: the server sees nothing before the approval,
// nothing after a decline), and connectMcp's own edges (../connection-checks.mjs): a closed port,
// a silent server, bad options, calls after and during close(), the injected fetch, timeoutMs, header values
// kept out of every error. The durable halts of its own tools: test-server-durable.test.mjs. Runs against dist/.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { connectionChecks } from "../connection-checks.mjs";
import { phase } from "../support/runtimes.mjs";
import { scriptedClient } from "../support/scripted.mjs";
import { check, connectMcp, find, form, runCleanups, testServer, toolnexus } from "./support.mjs";

const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-"));
const cleanups = [];
afterAll(async () => {
  await runCleanups(cleanups);
  rmSync(tmp, { recursive: true, force: true });
});
const SECRET = "Bearer mcp-test-secret-7f3a";
const srv = testServer();
/** The connection every check below shares, and one whose `deploy` needs an approval (made before the first). */
let conn;
let gated;

async function testServerChecks() {
  beforeAll(async () => {
    conn = await connectMcp({ name: "test server", url: srv.url, headers: { authorization: SECRET } });
    cleanups.push(() => conn.close());
    gated = await connectMcp({ name: "test server", url: srv.url, needsApproval: { deploy: true } });
    cleanups.push(() => gated.close());
  });

  await check(
    "connectMcp negotiates 2026-07-28 and lists the tools as sanitize(server)_sanitize(tool), source mcp",
    () => {
      assert.equal(conn.status, "connected", conn.error?.message);
      assert.equal(conn.era, "modern");
      assert.ok(conn.tools.length >= 8);
      for (const t of conn.tools) assert.match(t.name, /^test_server_[a-zA-Z0-9_-]+$/);
      assert.deepEqual(new Set(conn.tools.map((t) => t.source)), new Set(["mcp"]));
      find(conn, "test_server_connect_account");
    },
  );

  await check(
    "a tool's schema goes to the model as the server wrote it ($schema kept); validation is the server's",
    async () => {
      const echo = find(conn, "test_server_echo");
      assert.equal(echo.inputSchema.$schema, "https://json-schema.org/draft/2020-12/schema");
      assert.deepEqual(echo.inputSchema.properties, { text: { type: "string" } });
      const bad = await echo.execute({ text: 42 }, {});
      assert.equal(bad.isError, true);
      assert.doesNotMatch(bad.output, /^Invalid arguments for test_server_echo/); // not the core's checker …
      assert.match(bad.output, /^Input validation error: .*tool echo: text/); // … but the server's own
    },
  );

  await check("results: text joined, structuredContent as JSON, an error result's non-blank text parts", async () => {
    assert.deepEqual(await find(conn, "test_server_echo").execute({ text: "hi" }, {}), {
      output: "echo: hi",
      isError: false,
      metadata: { server: "test server" },
    });
    const sum = await find(conn, "test_server_add").execute({ a: 2, b: 3 }, {});
    assert.deepEqual(JSON.parse(sum.output), { sum: 5 });
    const fail = await find(conn, "test_server_fail").execute({}, {});
    assert.deepEqual([fail.output, fail.isError], ["first problem\n\nsecond problem", true]);
  });

  await check("headers reach the server on every request", async () => {
    assert.deepEqual((await srv.stats()).authorization, [SECRET]);
  });

  await check("on a page's main thread (window and document exist) Mcp-Param-* headers are still sent", async () => {
    globalThis.window = globalThis;
    globalThis.document = {};
    try {
      const r = await find(conn, "test_server_regional").execute({ region: "eu-west-1" }, {});
      assert.deepEqual([r.output, r.isError], ["region eu-west-1", false]);
    } finally {
      delete globalThis.window;
      delete globalThis.document;
    }
  });

  await inlineChecks(srv);
  await approvalChecks(srv);
  await connectionChecks({ check, cleanups, connectMcp, url: srv.url, stats: srv.stats });
}

async function inlineChecks(srv) {
  const run = async (calls, waitFor) => scriptedClient({ calls, waitFor }).run("go", { toolkit: conn.tools });

  await check(
    "inline: a form elicitation is an input Request (prompt, data.schema) answered through waitFor",
    async () => {
      const seen = [];
      const result = await run(
        [{ name: "test_server_deploy", args: { env: "prod" } }],
        async (req) => (seen.push(req), form(req.id, { confirm: true })),
      );
      assert.equal(seen.length, 1);
      assert.deepEqual([seen[0].kind, seen[0].prompt], ["input", "Deploy to prod?"]);
      assert.deepEqual(seen[0].data.schema.properties.confirm, { type: "boolean", title: "Confirm deployment" });
      assert.equal(result.status, "done");
      assert.equal(result.text, "Deployed to prod");
      assert.deepEqual((await srv.stats()).deployments, ["prod"]);
    },
  );

  await check(
    'inline: answerDeclined reaches the server as decline, "cancelled" as cancel; nothing is deployed',
    async () => {
      const declined = await run([{ name: "test_server_deploy", args: { env: "qa" } }], async (req) =>
        toolnexus.answerDeclined(req.id),
      );
      const cancelled = await run([{ name: "test_server_deploy", args: { env: "qa" } }], async (req) =>
        toolnexus.answerDeclined(req.id, "cancelled"),
      );
      assert.equal(declined.text, "Deployment declined");
      assert.equal(cancelled.text, "Deployment cancelled");
      assert.ok(!(await srv.stats()).deployments.includes("qa"));
    },
  );

  await check("inline: two inputRequests of one round are asked in order, then the call is retried once", async () => {
    const prompts = [];
    const answers = { "Your name?": { name: "Ada" }, "Your age?": { age: 36 } };
    const result = await run(
      [{ name: "test_server_survey" }],
      async (req) => (prompts.push(req.prompt), form(req.id, answers[req.prompt])),
    );
    assert.deepEqual(prompts, ["Your name?", "Your age?"]);
    assert.equal(result.text, "Ada is 36");
  });

  await check(
    "inline: a URL elicitation is an authorization Request with the url; after the visit the call completes",
    async () => {
      const seen = [];
      const result = await run([{ name: "test_server_connect_account" }], async (req) => {
        seen.push(req);
        await fetch(req.url); // the user completes the flow out of band
        return toolnexus.answerOutput(req.id, "done");
      });
      assert.equal(seen.length, 1);
      assert.equal(seen[0].kind, "authorization");
      assert.match(seen[0].url, /^http:\/\/127\.0\.0\.1:\d+\/connect\?flow=/);
      assert.match(result.text, /^Account linked/);
    },
  );
}

async function approvalChecks(srv) {
  const calls = async () => (await srv.stats()).calls;

  await check("needsApproval: a bad option is a ConfigError from connectMcp; the rule shows on the tools", async () => {
    await assert.rejects(connectMcp({ name: "x", url: srv.url, needsApproval: "yes" }), {
      name: "ConfigError",
      code: "config",
    });
    await assert.rejects(
      connectMcp({ name: "x", url: srv.url, needsApproval: { deploy: "yes" } }),
      /needsApproval.deploy/,
    );
    assert.equal(find(gated, "test_server_deploy").needsApproval, true);
    assert.equal(find(gated, "test_server_echo").needsApproval, undefined);
  });

  await check(
    "needsApproval inline: the call waits for kind approval (data { tool, args }) before the server sees it; approved, it runs and elicits",
    async () => {
      const before = await calls();
      const seen = [];
      const result = await scriptedClient({
        calls: [
          { name: "test_server_deploy", args: { env: "approved" } },
          { name: "test_server_echo", args: { text: "no approval" } },
        ],
        waitFor: async (req) => {
          seen.push({ kind: req.kind, prompt: req.prompt, data: req.data, calls: await calls() });
          return req.kind === "approval" ? toolnexus.answerOutput(req.id, "approved") : form(req.id, { confirm: true });
        },
      }).run("go", { toolkit: gated.tools });
      assert.deepEqual(seen[0], {
        kind: "approval",
        prompt: "Approve running the tool test_server_deploy?",
        data: { tool: "test_server_deploy", args: { env: "approved" } },
        calls: before + 1, // the echo call only: it needs no approval
      });
      assert.deepEqual([seen[1].kind, seen[1].calls, seen.length], ["input", before + 2, 2]);
      assert.equal(result.text, "Deployed to approved\n---\necho: no approval");
      assert.deepEqual(
        (await srv.stats()).deployments.filter((e) => e === "approved"),
        ["approved"],
      );
    },
  );

  await check("needsApproval inline: a declined approval never reaches the server; the model is told", async () => {
    const before = await calls();
    const result = await scriptedClient({
      calls: [{ name: "test_server_deploy", args: { env: "refused" } }],
      waitFor: async (req) => toolnexus.answerDeclined(req.id),
    }).run("go", { toolkit: gated.tools });
    assert.equal(result.text, "declined/expired: Approve running the tool test_server_deploy?");
    assert.equal(await calls(), before);
    assert.ok(!(await srv.stats()).deployments.includes("refused"));
  });

  await check("needsApproval as a predicate of the server's tool name and the arguments", async () => {
    const conn = await connectMcp({
      name: "test server",
      url: srv.url,
      needsApproval: (tool, args) => tool === "transfer" && args.amount > 100,
    });
    cleanups.push(() => conn.close());
    const first = async (args) => {
      let kind;
      await scriptedClient({
        calls: [{ name: "test_server_transfer", args }],
        waitFor: async (req) => ((kind ??= req.kind), toolnexus.answerDeclined(req.id)),
      }).run("go", { toolkit: conn.tools });
      return kind;
    };
    assert.equal(await first({ amount: 1000, to: "bob" }), "approval");
    assert.equal(await first({ amount: 10, to: "bob" }), "input"); // straight to the server's own elicitation
    assert.deepEqual((await srv.stats()).transfers, []);
  });

  const d = join(tmp, "approval-runs");
  const phaseOf = (config) => phase({ url: srv.url, dir: d, approve: ["deploy"], ...config });
  await check(
    "needsApproval durable: halt on the approval (nothing sent) → approve in a second process → the elicitation → a third → deployed once",
    async () => {
      const before = await calls();
      const h = await phaseOf({ phase: "halt", calls: [{ name: "test_server_deploy", args: { env: "gated" } }] });
      assert.deepEqual([h.status, h.pending?.kind], ["pending", "approval"], JSON.stringify(h));
      assert.equal(await calls(), before);
      const r1 = await phaseOf({ phase: "resume", runId: h.runId, answer: toolnexus.answerOutput(h.pending.id, "ok") });
      assert.deepEqual([r1.status, r1.runId, r1.pending?.kind], ["pending", h.runId, "input"], JSON.stringify(r1));
      assert.equal(await calls(), before + 1);
      const r2 = await phaseOf({ phase: "resume", runId: h.runId, answer: form(r1.pending.id, { confirm: true }) });
      assert.equal(r2.text, "Deployed to gated");
      assert.deepEqual(new Set([h.pid, r1.pid, r2.pid]).size, 3);
      assert.deepEqual(
        (await srv.stats()).deployments.filter((e) => e === "gated"),
        ["gated"],
      );
    },
  );

  await check("needsApproval durable: declined in the resuming process, the server never sees the call", async () => {
    const before = await calls();
    const h = await phaseOf({ phase: "halt", calls: [{ name: "test_server_deploy", args: { env: "gated-no" } }] });
    const r = await phaseOf({ phase: "resume", runId: h.runId, answer: toolnexus.answerDeclined(h.pending.id) });
    assert.equal(r.status, "done", JSON.stringify(r));
    assert.equal(r.toolCalls.at(-1).output, "declined/expired: Approve running the tool test_server_deploy?");
    assert.equal(await calls(), before);
  });
}

await testServerChecks();
