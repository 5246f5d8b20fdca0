// toolnexus/mcp as a client in workerd, Chromium and Deno, and the MCP test server served from workerd. The
// test server (CORS on) is the globalSetup's, on 127.0.0.1; every other server binds 127.0.0.1 and is stopped
// after the last check, also on failure; the model is scripted, in process.
//   client side  test/mcp/runtimes/scenarios.mjs, bundled once per runtime family with esbuild (workerd and
//                Deno: --platform=neutral --main-fields=module,main --conditions=workerd,worker,browser; the
//                page: --platform=browser) and driven from here against the Node-served test server:
//                list and call; a form elicitation inline through waitFor; decline and cancel; a durable halt
//                into the runtime's own storage, resumed in a second isolate / page load / process; a tampered
//                and an expired requestState; a second resume of the same answer
//   (how each runtime is started and driven: ../support/runtimes.mjs)
//     workerd    Miniflare without nodejs_compat, KV persisted to disk: the resume runs in a fresh instance
//     chromium   Debian's /usr/bin/chromium through Playwright, the page on another origin than the server,
//                runs in localStorage: the resume runs after page.reload()
//     deno       the `deno` npm package, runs in Deno KV: each phase is a `deno run` of its own
//   server side  test/mcp/runtimes/server-worker.mjs (the same test server) in Miniflare on 127.0.0.1: Node
//                clients list and call, and resume in one Node process a run halted in another; a Deno
//                client halts into Deno KV and a second `deno run` resumes
// Runs against dist/.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import * as support from "../support/runtimes.mjs";
import { check, root, runCleanups, testServer } from "./support.mjs";

const { bundle, phase, COMPATIBILITY_DATE } = support;
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-runtimes-"));
const cleanups = [];
const ctx = { tmp, cleanups };
afterAll(async () => {
  await runCleanups(cleanups);
  rmSync(tmp, { recursive: true, force: true });
});
/** The runtimes' denoRun, and the three runtimes once made (before the first check). */
const runtimes = { denoRun: support.denoRun };

/** What the check names say of each runtime, known before it is made. */
const NAMES = {
  workerd: { storage: "KV", second: "a fresh Miniflare instance sharing the KV persistence" },
  chromium: { storage: "localStorage", second: "the page after page.reload()" },
  deno: { storage: "Deno KV", second: "a second `deno run` process" },
};
let bundles;
beforeAll(async () => {
  bundles = await bundle();
  runtimes.workerd = support.workerd(ctx, bundles.worker);
  runtimes.chromium = await support.chromium(ctx, bundles.page);
  runtimes.deno = support.deno(ctx, bundles.deno);
});

const form = (id, fields) => ({ id, ok: true, data: fields });
const deployed = async (srv, env) => (await srv.stats()).deployments.filter((e) => e === env);
const ok = (result) => {
  if (result?.thrown) assert.fail(`the step threw in the runtime:\n${result.thrown}`);
  return result;
};

/** The checks of one runtime; `runtimes[rt]` is made before the first check (its names are known before). */
async function clientChecks(rt, srv) {
  const runtime = { ...NAMES[rt], open: () => runtimes[rt].open() };
  const url = srv.url;
  const env = (what) => `${rt}-${what}`;
  let first;
  let halted = [];
  await check(
    `${rt}: connectMcp lists the tools (era modern, source mcp) and calls them, x-mcp-header included`,
    async () => {
      const isolate = await runtime.open();
      first = isolate;
      const { results } = await isolate.run([
        { step: "listCall", args: { url } },
        { step: "inline", args: { url, env: env("inline") } },
        { step: "declineCancel", args: { url, env: env("refused") } },
        { step: "halt", args: { url, env: env("durable") } },
        { step: "halt", args: { url, env: env("tampered") } },
        { step: "halt", args: { url, env: env("expired") } },
      ]);
      first.results = results;
      const listed = ok(results[0]);
      assert.equal(listed.era, "modern");
      assert.deepEqual(listed.sources, ["mcp"]);
      for (const name of ["test_server_deploy", "test_server_echo", "test_server_regional"])
        assert.ok(listed.names.includes(name), `${name} in ${listed.names}`);
      assert.deepEqual(listed.outputs, [
        ["echo: hi", false],
        ['{"sum":5}', false],
        ["region eu-west-1", false],
      ]);
    },
  );

  await check(`${rt}: a form elicitation is an input Request answered inline through waitFor`, async () => {
    const inline = ok(first?.results?.[1]);
    assert.deepEqual(inline.seen, [
      {
        kind: "input",
        prompt: `Deploy to ${env("inline")}?`,
        confirm: { type: "boolean", title: "Confirm deployment" },
      },
    ]);
    assert.deepEqual([inline.status, inline.text], ["done", `Deployed to ${env("inline")}`]);
    assert.deepEqual(await deployed(srv, env("inline")), [env("inline")]);
  });

  await check(`${rt}: decline and cancel reach the server as decline and cancel; nothing deployed`, async () => {
    const refused = ok(first?.results?.[2]);
    assert.deepEqual(refused, { declined: "Deployment declined", cancelled: "Deployment cancelled" });
    assert.deepEqual(await deployed(srv, env("refused")), []);
  });

  await check(
    `${rt}: durable — without waitFor the run halts into ${runtime.storage}; no requestState shown`,
    async () => {
      halted = first.results.slice(3, 6).map(ok);
      for (const [h, what] of halted.map((h, i) => [h, ["durable", "tampered", "expired"][i]])) {
        assert.equal(h.status, "pending", JSON.stringify(h));
        assert.deepEqual([h.pending.kind, h.pending.prompt], ["input", `Deploy to ${env(what)}?`]);
        assert.doesNotMatch(JSON.stringify([h.pending, h.requests, h.toolCalls]), /requestState|v1\.|idFloor/);
      }
      const { results } = await first.run([{ step: "tamper", args: { runId: halted[1].runId } }]);
      assert.deepEqual(ok(results[0]), { changed: 1 });
      await first.close();
    },
  );

  let second;
  let resumed;
  await check(
    `${rt}: durable — ${runtime.second} resumes with answerForm; the call completes, deployed once`,
    async () => {
      second = await runtime.open();
      const [durable, tampered] = halted;
      const { id, results } = await second.run([
        { step: "resume", args: { url, runId: durable.runId, answer: form(durable.pending.id, { confirm: true }) } },
        { step: "resume", args: { url, runId: tampered.runId, answer: form(tampered.pending.id, { confirm: true }) } },
      ]);
      second.results = results;
      assert.notEqual(id, first.id, "the resume ran where the halt did");
      resumed = ok(results[0]);
      assert.deepEqual(
        [resumed.status, resumed.text],
        ["done", `Deployed to ${env("durable")}`],
        JSON.stringify(resumed),
      );
      assert.deepEqual(await deployed(srv, env("durable")), [env("durable")]);
    },
  );

  await check(
    `${rt}: a tampered requestState in ${runtime.storage} → a clear error result; the run finishes, nothing deployed`,
    async () => {
      const r = ok(second?.results?.[1]);
      assert.equal(r.status, "done", JSON.stringify(r));
      assert.match(r.toolCalls.at(-1).output, /refused the saved state of deploy .*expired or was altered/);
      assert.equal(r.toolCalls.at(-1).isError, true);
      assert.deepEqual(await deployed(srv, env("tampered")), []);
    },
  );

  let late;
  await check(`${rt}: an expired requestState → the same clear error result; nothing deployed`, async () => {
    await srv.expire(); // every requestState minted so far expires (the durable one was used already)
    const expired = halted[2];
    const durable = halted[0];
    const { results } = await second.run([
      { step: "resume", args: { url, runId: expired.runId, answer: form(expired.pending.id, { confirm: true }) } },
      { step: "resume", args: { url, runId: durable.runId, answer: form(durable.pending.id, { confirm: true }) } },
    ]);
    late = results;
    const r = ok(results[0]);
    assert.equal(r.status, "done", JSON.stringify(r));
    assert.match(r.toolCalls.at(-1).output, /refused the saved state of deploy .*expired/);
    assert.deepEqual(await deployed(srv, env("expired")), []);
  });

  await check(`${rt}: a second resume of the same answer runs nothing again`, async () => {
    const again = ok(late?.[1]);
    if (again.error) assert.match(again.error.code, /run_conflict|run_not_found/);
    else assert.equal(again.text, `Deployed to ${env("durable")}`);
    assert.deepEqual(await deployed(srv, env("durable")), [env("durable")]);
    await second.close();
  });
}

// --- the test server on workerd -----------------------------------------------------------------------------

async function workerdServerChecks() {
  const { Miniflare } = await import("miniflare");
  const { steps } = await import(join(root, "test/mcp/runtimes/scenarios.mjs"));
  let base;
  let url;
  await check("workerd server: the test server runs in Miniflare (no nodejs_compat) on 127.0.0.1", async () => {
    const mf = new Miniflare({
      modules: true,
      script: bundles["server-worker"],
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: [],
      host: "127.0.0.1",
      port: 0,
      cf: false,
    });
    cleanups.push(() => mf.dispose());
    const ready = await mf.ready;
    assert.equal(ready.hostname, "127.0.0.1");
    base = ready.origin;
    url = `${base}/mcp`;
  });
  const stats = () => fetch(`${base}/stats`).then((r) => r.json());

  await check("workerd server: a Node client lists and calls its tools (era modern)", async () => {
    const listed = await steps.listCall({ url });
    assert.equal(listed.era, "modern");
    assert.ok(listed.names.includes("test_server_deploy"), String(listed.names));
    assert.deepEqual(listed.outputs[0], ["echo: hi", false]);
    assert.deepEqual(listed.outputs[1], ['{"sum":5}', false]);
  });

  await check("workerd server: durable halt in one Node process, resumed in another; deployed once", async () => {
    const dir = join(tmp, "workerd-server-runs");
    const calls = [{ name: "test_server_deploy", args: { env: "on-workerd" } }];
    const h = await phase({ phase: "halt", url, dir, calls });
    assert.deepEqual([h.status, h.pending?.kind], ["pending", "input"], JSON.stringify(h));
    const answer = form(h.pending.id, { confirm: true });
    const r = await phase({ phase: "resume", url, dir, runId: h.runId, answer });
    assert.notEqual(r.pid, h.pid);
    assert.equal(r.text, "Deployed to on-workerd", JSON.stringify(r));
    const again = await phase({ phase: "resume", url, dir, runId: h.runId, answer });
    if (again.error) assert.match(again.error.code, /run_conflict|run_not_found/);
    else assert.equal(again.text, "Deployed to on-workerd");
    assert.deepEqual((await stats()).deployments, ["on-workerd"]);
  });

  await check(
    "workerd server: a Deno client halts into Deno KV, a second deno run resumes; deployed once",
    async () => {
      const file = join(tmp, "deno-steps-workerd.mjs");
      writeFileSync(file, bundles.deno);
      const kv = join(tmp, "deno-kv-workerd.sqlite3");
      const halted = await runtimes.denoRun(ctx, file, kv, [{ step: "halt", args: { url, env: "deno-on-workerd" } }]);
      const h = ok(halted.results[0]);
      assert.deepEqual([h.status, h.pending?.kind], ["pending", "input"], JSON.stringify(h));
      const answer = form(h.pending.id, { confirm: true });
      const resumed = await runtimes.denoRun(ctx, file, kv, [
        { step: "resume", args: { url, runId: h.runId, answer } },
      ]);
      assert.notEqual(resumed.id, halted.id);
      assert.equal(ok(resumed.results[0]).text, "Deployed to deno-on-workerd");
      assert.deepEqual(
        (await stats()).deployments.filter((e) => e === "deno-on-workerd"),
        ["deno-on-workerd"],
      );
    },
  );
}

const srv = testServer("cors");
await clientChecks("workerd", srv);
await clientChecks("chromium", srv);
await clientChecks("deno", srv);
await workerdServerChecks();
