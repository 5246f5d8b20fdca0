// toolnexus/mcp against @modelcontextprotocol/server-everything (session era, pushed elicitation) over
// streamable HTTP, started on 127.0.0.1 by the globalSetup: list, call, every request through an injected fetch,
// inline elicitation, the -32042 URL error, and the durable path refusing a pushed elicitation. Runs against dist/.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { sessionEndChecks, sessionFetchCheck } from "../connection-checks.mjs";
import { phase } from "../support/runtimes.mjs";
import { scriptedClient } from "../support/scripted.mjs";
import { check, connectMcp, everythingUrl, find, form, runCleanups, toolnexus } from "./support.mjs";

const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-everything-"));
const cleanups = [];
afterAll(async () => {
  await runCleanups(cleanups);
  rmSync(tmp, { recursive: true, force: true });
});

async function everythingChecks() {
  const url = everythingUrl();
  let conn;
  beforeAll(async () => {
    conn = await connectMcp({ name: "everything", url });
    cleanups.push(() => conn.close());
  });
  await check("server-everything: starts on 127.0.0.1 and connects in the session era", async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(conn.status, "connected", conn.error?.message);
  });

  await check("server-everything: list and call", async () => {
    assert.equal(conn.status, "connected", conn.error?.message);
    assert.equal(conn.era, "legacy");
    const echo = find(conn, "everything_echo");
    assert.deepEqual((await echo.execute({ message: "hello" }, {})).output, "Echo: hello");
  });

  await sessionFetchCheck({ check, connectMcp, url });
  await sessionEndChecks({ check, connectMcp, url });

  await check("server-everything: a pushed form elicitation is answered inline through waitFor", async () => {
    const seen = [];
    const client = scriptedClient({
      calls: [{ name: "everything_trigger-elicitation-request" }],
      waitFor: async (req) => (
        seen.push(req),
        form(req.id, {
          name: "Ada",
          check: true,
          firstLine: "x",
          email: "a@b.co",
          homepage: "https://example.com",
          birthdate: "1990-01-01",
          integer: 7,
          number: 3.5,
          untitledSingleSelectEnum: "option1",
          untitledMultipleSelectEnum: ["option1"],
          titledSingleSelectEnum: "value1",
          titledMultipleSelectEnum: ["value1"],
          legacyTitledEnum: "opt1",
        })
      ),
    });
    const result = await client.run("go", { toolkit: conn.tools });
    assert.equal(seen.length, 1);
    assert.equal(seen[0].kind, "input");
    assert.ok(seen[0].data.schema.properties, "the requestedSchema is data.schema");
    assert.equal(result.status, "done");
    assert.match(result.text, /accept/i);
  });

  await check(
    "server-everything: the -32042 URL-required error becomes an authorization Request, then the call goes on",
    async () => {
      const seen = [];
      const client = scriptedClient({
        calls: [
          { name: "everything_trigger-url-elicitation", args: { url: "http://127.0.0.1/after", errorPath: true } },
        ],
        waitFor: async (req) => (seen.push(req), toolnexus.answerOutput(req.id, "ok")),
      });
      const result = await client.run("go", { toolkit: conn.tools });
      assert.deepEqual(
        seen.map((r) => [r.kind, r.url]),
        [
          ["authorization", "https://modelcontextprotocol.io"],
          ["authorization", "http://127.0.0.1/after"],
        ],
      );
      assert.equal(result.status, "done");
      assert.doesNotMatch(result.toolCalls.at(-1).output, /unresolved|failed/);
    },
  );

  await check(
    "server-everything: a pushed elicitation cannot halt durably — the resume elsewhere is refused clearly",
    async () => {
      const d = join(tmp, "everything-runs");
      const h = await phase({
        phase: "halt",
        url,
        dir: d,
        calls: [{ name: "test_server_trigger-elicitation-request" }],
      }); // the phase names its connection "test server"
      assert.equal(h.status, "pending", JSON.stringify(h));
      const r = await phase({
        phase: "resume",
        url,
        dir: d,
        runId: h.runId,
        answer: form(h.pending.id, { name: "x" }),
      });
      assert.match(
        r.toolCalls.at(-1).output,
        /only the process that made the call can answer it \(inline, with waitFor\)/,
      );
    },
  );
}

await everythingChecks();
