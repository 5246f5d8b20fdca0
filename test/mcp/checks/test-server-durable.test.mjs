// toolnexus/mcp's durable path against the test server (server SDK 2.4) the globalSetup serves on 127.0.0.1: a
// halt without waitFor → file storage → resume in a second process (a new JSON-RPC id), a second resume of the
// same answer, two requests of one round across processes, decline and cancel from the resuming process, and
// a stored run tampered with (requestState, arguments, the tool's state) or expired — refused, nothing
// deployed, no header value stored. Runs against dist/.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { phase } from "../support/runtimes.mjs";
import { check, form, testServer, toolnexus } from "./support.mjs";

const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-durable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SECRET = "Bearer mcp-test-secret-7f3a";

/** Every string under a key named `key`, anywhere in a JSON value, replaced by `fn(value)`. */
function rewrite(value, key, fn) {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, key, fn));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === key ? fn(v) : rewrite(v, key, fn)]));
  return value;
}
/** The stored run records in a file storage directory, parsed (the run keys hold the record). */
const records = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [join(dir, f), readFileSync(join(dir, f), "utf8")]);

async function durableChecks(srv) {
  let n = 0;
  const dir = () => join(tmp, `runs-${n++}`);
  const halt = (d, calls) => phase({ phase: "halt", url: srv.url, dir: d, calls, headers: { authorization: SECRET } });
  const resume = (d, runId, answer) =>
    phase({ phase: "resume", url: srv.url, dir: d, runId, answer, headers: { authorization: SECRET } });

  const d1 = dir();
  let halted;
  await check(
    "durable: without waitFor the run halts into storage; no state, requestState or header reaches result.pending",
    async () => {
      halted = await halt(d1, [{ name: "test_server_deploy", args: { env: "staging" } }]);
      assert.equal(halted.status, "pending", JSON.stringify(halted));
      assert.deepEqual([halted.pending.kind, halted.pending.prompt], ["input", "Deploy to staging?"]);
      const shown = JSON.stringify({ pending: halted.pending, requests: halted.requests, toolCalls: halted.toolCalls });
      assert.doesNotMatch(shown, /requestState|v1\.|idFloor/);
      const stored = records(d1)
        .map(([, text]) => text)
        .join("\n");
      assert.match(stored, /requestState/); // the state is kept in the stored run …
      assert.ok(!stored.includes(SECRET) && !stored.includes("mcp-test-secret"), "a header value was stored"); // … and no header value
    },
  );

  let resumed;
  await check(
    "durable: a second process resumes with answerForm; the call is retried with a new JSON-RPC id and completes",
    async () => {
      const before = await srv.stats();
      resumed = await resume(d1, halted.runId, form(halted.pending.id, { confirm: true }));
      assert.notEqual(resumed.pid, halted.pid);
      assert.equal(resumed.status, "done", JSON.stringify(resumed));
      assert.equal(resumed.text, "Deployed to staging");
      const after = await srv.stats();
      assert.deepEqual(
        after.deployments.filter((e) => e === "staging"),
        ["staging"],
      );
      const ids = after.ids.slice(before.ids.length - 1); // the original call's id, then the retry's
      assert.equal(new Set(after.ids.slice(-2)).size, 2, `retry reused an id: ${ids}`);
    },
  );

  await check("durable: a second resume of the same answer runs nothing again (exactly once on our side)", async () => {
    const again = await resume(d1, halted.runId, form(halted.pending.id, { confirm: true }));
    if (again.error) assert.match(again.error.code, /run_conflict|run_not_found/);
    else assert.equal(again.text, "Deployed to staging");
    assert.deepEqual(
      (await srv.stats()).deployments.filter((e) => e === "staging"),
      ["staging"],
    );
  });

  await check("durable: two requests of one round, answered one resume at a time, across processes", async () => {
    const d = dir();
    const h = await halt(d, [{ name: "test_server_survey" }]);
    assert.equal(h.pending.prompt, "Your name?");
    const r1 = await resume(d, h.runId, form(h.pending.id, { name: "Grace" }));
    assert.equal(r1.status, "pending", JSON.stringify(r1));
    assert.equal(r1.pending.prompt, "Your age?");
    const r2 = await resume(d, h.runId, form(r1.pending.id, { age: 85 }));
    assert.equal(r2.text, "Grace is 85");
  });

  await check("durable: decline and cancel reach the server from the resuming process", async () => {
    const [a, b] = [dir(), dir()];
    const ha = await halt(a, [{ name: "test_server_deploy", args: { env: "dev" } }]);
    const hb = await halt(b, [{ name: "test_server_deploy", args: { env: "dev" } }]);
    assert.equal((await resume(a, ha.runId, toolnexus.answerDeclined(ha.pending.id))).text, "Deployment declined");
    assert.equal(
      (await resume(b, hb.runId, toolnexus.answerDeclined(hb.pending.id, "cancelled"))).text,
      "Deployment cancelled",
    );
    assert.ok(!(await srv.stats()).deployments.includes("dev"));
  });

  await check(
    "durable: a tampered requestState is refused by the server — a clear error result, nothing deployed",
    async () => {
      const d = dir();
      const h = await halt(d, [{ name: "test_server_deploy", args: { env: "tampered" } }]);
      for (const [file, text] of records(d))
        writeFileSync(file, JSON.stringify(rewrite(JSON.parse(text), "requestState", (s) => `${s.slice(0, -4)}AAAA`)));
      const r = await resume(d, h.runId, form(h.pending.id, { confirm: true }));
      assert.equal(r.status, "done", JSON.stringify(r));
      assert.match(r.toolCalls.at(-1).output, /refused the saved state of deploy .*expired or was altered/);
      assert.ok(!(await srv.stats()).deployments.includes("tampered"));
    },
  );

  await check("durable: an expired requestState is refused the same way", async () => {
    const d = dir();
    const h = await halt(d, [{ name: "test_server_deploy", args: { env: "expired" } }]);
    await srv.expire();
    const r = await resume(d, h.runId, form(h.pending.id, { confirm: true }));
    assert.match(r.toolCalls.at(-1).output, /refused the saved state of deploy .*expired/);
    assert.ok(!(await srv.stats()).deployments.includes("expired"));
  });

  /** Halts a transfer of 10 to bob, lets `tamper` rewrite the stored run, resumes; returns the tool's output. */
  const tamperedTransfer = async (tamper) => {
    const d = dir();
    const h = await halt(d, [{ name: "test_server_transfer", args: { amount: 10, to: "bob" } }]);
    for (const [file, text] of records(d)) writeFileSync(file, tamper(text));
    const r = await resume(d, h.runId, form(h.pending.id, { approve: true }));
    assert.equal(r.status, "done", JSON.stringify(r));
    return r.toolCalls.at(-1).output;
  };

  await check(
    "durable: arguments altered in the stored run and in the tool's state are refused by the server",
    async () => {
      const everywhere = (text) =>
        JSON.stringify(rewrite(JSON.parse(text), "amount", () => 10_000)).replaceAll(
          '\\"amount\\":10',
          '\\"amount\\":10000',
        );
      assert.match(await tamperedTransfer(everywhere), /requestState was minted for other arguments/);
      assert.deepEqual((await srv.stats()).transfers, []);
    },
  );

  await check(
    "durable: a tool state that disagrees with the stored call is refused before anything is sent",
    async () => {
      const before = (await srv.stats()).calls;
      const stateOnly = (text) =>
        JSON.stringify(
          rewrite(JSON.parse(text), "state", (st) =>
            st?.call ? { ...st, call: { ...st.call, arguments: { amount: 5, to: "eve" } } } : st,
          ),
        );
      assert.match(
        await tamperedTransfer(stateOnly),
        /cannot go on: the arguments differ .* nothing was sent to the server/,
      );
      assert.equal((await srv.stats()).calls, before + 1); // the halting call only
      assert.deepEqual((await srv.stats()).transfers, []);
    },
  );

  await check(
    "durable: a tool state that is not a state at all is refused, naming the bad field; nothing is sent",
    async () => {
      const before = (await srv.stats()).calls;
      const broken = (text) =>
        JSON.stringify(rewrite(JSON.parse(text), "state", (st) => (st?.call ? { ...st, idFloor: "high" } : st)));
      assert.match(await tamperedTransfer(broken), /its saved state is not valid \("idFloor" must be a whole number/);
      assert.equal((await srv.stats()).calls, before + 1);
      assert.deepEqual((await srv.stats()).transfers, []);
    },
  );
}

await durableChecks(testServer());
