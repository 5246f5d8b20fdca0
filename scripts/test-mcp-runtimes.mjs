// toolnexus/mcp as a client in workerd, Chromium and Deno, and the MCP test server served from workerd.
// Every server binds 127.0.0.1 and is stopped here, also on failure; the model is scripted, in process.
//   client side  test/mcp/runtimes/scenarios.mjs, bundled once per runtime family with esbuild (workerd and
//                Deno: --platform=neutral --main-fields=module,main --conditions=workerd,worker,browser; the
//                page: --platform=browser) and driven from here against the Node-served test server (CORS on):
//                list and call; a form elicitation inline through waitFor; decline and cancel; a durable halt
//                into the runtime's own storage, resumed in a second isolate / page load / process; a tampered
//                and an expired requestState; a second resume of the same answer
//     workerd    Miniflare without nodejs_compat, KV persisted to disk: the resume runs in a fresh instance
//     chromium   Debian's /usr/bin/chromium through Playwright, the page on another origin than the server,
//                runs in localStorage: the resume runs after page.reload()
//     deno       the `deno` npm package, runs in Deno KV: each phase is a `deno run` of its own
//   server side  test/mcp/runtimes/server-worker.mjs (the same test server) in Miniflare on 127.0.0.1: Node
//                clients list and call, and resume in one Node process a run halted in another; a Deno
//                client halts into Deno KV and a second `deno run` resumes
// Runs against dist/ (built first when missing). Prints `mcp-runtimes: N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-runtimes-"));
const { check, fail, cleanup, finish, cleanups } = createChecks("mcp-runtimes", { tmp, traceLines: 12 });
const DIR = join(root, "test/mcp/runtimes");
const COMPATIBILITY_DATE = "2026-04-20";

if (!existsSync(join(root, "dist/mcp.js")) || !existsSync(join(root, "dist/index.js"))) {
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}
const { serveTestServer } = await import(join(root, "test/mcp/servers/serve-node.mjs"));

/** Every bundle, built once: the Worker, the Deno script and the server Worker alike, and the page's. */
async function bundle() {
  const common = { bundle: true, format: "esm", write: false, logLevel: "silent", outdir: "/out" };
  const [neutral, browser] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ["worker", "deno", "server-worker"].map((n) => join(DIR, `${n}.mjs`)),
      platform: "neutral",
      mainFields: ["module", "main"],
      conditions: ["workerd", "worker", "browser"],
    }),
    esbuild.build({ ...common, entryPoints: [join(DIR, "page.mjs")], platform: "browser" }),
  ]);
  const out = {};
  for (const file of [...neutral.outputFiles, ...browser.outputFiles])
    out[file.path.split("/").at(-1).replace(/\.js$/, "")] = file.text;
  return out;
}

// --- the runtimes, each as `open()`: a fresh isolate / page load / process whose `run(steps)` runs steps ----

function workerd(script) {
  const kvPersist = join(tmp, "kv");
  return {
    storage: "KV",
    second: "a fresh Miniflare instance sharing the KV persistence",
    async open() {
      const { Miniflare } = await import("miniflare");
      const mf = new Miniflare({
        modules: true,
        script,
        compatibilityDate: COMPATIBILITY_DATE,
        compatibilityFlags: [],
        kvNamespaces: ["RUNS"],
        kvPersist,
        cf: false,
      });
      cleanups.push(() => mf.dispose());
      const id = crypto.randomUUID();
      return {
        id,
        async run(list) {
          const res = await mf.dispatchFetch("http://worker/", { method: "POST", body: JSON.stringify(list) });
          if (!res.ok) throw new Error(`the Worker answered ${res.status}: ${await res.text()}`);
          return { id, results: await res.json() };
        },
        close: () => mf.dispose(),
      };
    },
  };
}

async function chromium(script) {
  const { chromium: launcher } = await import("playwright");
  // the page's own origin (another port than the MCP server's): the server must allow it (CORS)
  const site = createServer((req, res) => {
    if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else res.writeHead(200, { "content-type": "text/html" }).end('<script type="module" src="/page.js"></script>');
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (site.closeAllConnections(), site.close(resolve))));
  const browser = await launcher.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  let loads = 0;
  return {
    storage: "localStorage",
    second: "the page after page.reload()",
    async open() {
      if (loads++ === 0) await page.goto(`http://127.0.0.1:${site.address().port}/`);
      else await page.reload();
      await page.waitForFunction(() => typeof globalThis.mcpSteps === "function");
      const id = await page.evaluate(() => {
        globalThis.loadId ??= crypto.randomUUID(); // one per page load: a reload forgets it
        return globalThis.loadId;
      });
      return {
        id,
        async run(list) {
          const results = await page.evaluate((steps) => globalThis.mcpSteps(steps), list);
          if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
          return { id, results };
        },
        close: async () => {},
      };
    },
  };
}

function deno(script) {
  const file = join(tmp, "deno-steps.mjs");
  const kv = join(tmp, "deno-kv.sqlite3");
  return {
    storage: "Deno KV",
    second: "a second `deno run` process",
    async open() {
      writeFileSync(file, script);
      return {
        run: (list) => denoRun(file, kv, list),
        close: async () => {},
      };
    },
  };
}

function denoRun(file, kv, list) {
  const args = ["run", "--quiet", "--unstable-kv", "--allow-net=127.0.0.1", `--allow-read=${tmp}`];
  args.push(`--allow-write=${tmp}`, "--no-prompt", file, kv, JSON.stringify(list));
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, "node_modules/.bin/deno"), args, {
      cwd: tmp,
      env: { ...process.env, DENO_DIR: join(tmp, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        const { pid, results } = JSON.parse(out.trim().split("\n").at(-1));
        resolve({ id: pid, results });
      } catch {
        reject(new Error(`deno exited ${code}: ${out}\n${err}`));
      }
    });
  });
}

// --- the scenarios, the same in every runtime ---------------------------------------------------------------

const form = (id, fields) => ({ id, ok: true, data: fields });
const deployed = async (srv, env) => (await srv.stats()).deployments.filter((e) => e === env);
const ok = (result) => {
  if (result?.thrown) assert.fail(`the step threw in the runtime:\n${result.thrown}`);
  return result;
};

async function clientChecks(rt, srv, runtime) {
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

/** Runs a phase of a durable run in its own Node process (test/mcp/phases/run.mjs); resolves with its JSON. */
function phase(config) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "test/mcp/phases/run.mjs"), JSON.stringify(config)], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1)));
      } catch {
        reject(new Error(`phase exited ${code}: ${out}\n${err}`));
      }
    });
  });
}

async function workerdServerChecks(script, denoScript) {
  const { Miniflare } = await import("miniflare");
  const { steps } = await import(join(DIR, "scenarios.mjs"));
  let base;
  await check("workerd server: the test server runs in Miniflare (no nodejs_compat) on 127.0.0.1", async () => {
    const mf = new Miniflare({
      modules: true,
      script,
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
  });
  const url = `${base}/mcp`;
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
      writeFileSync(file, denoScript);
      const kv = join(tmp, "deno-kv-workerd.sqlite3");
      const halted = await denoRun(file, kv, [{ step: "halt", args: { url, env: "deno-on-workerd" } }]);
      const h = ok(halted.results[0]);
      assert.deepEqual([h.status, h.pending?.kind], ["pending", "input"], JSON.stringify(h));
      const answer = form(h.pending.id, { confirm: true });
      const resumed = await denoRun(file, kv, [{ step: "resume", args: { url, runId: h.runId, answer } }]);
      assert.notEqual(resumed.id, halted.id);
      assert.equal(ok(resumed.results[0]).text, "Deployed to deno-on-workerd");
      assert.deepEqual(
        (await stats()).deployments.filter((e) => e === "deno-on-workerd"),
        ["deno-on-workerd"],
      );
    },
  );
}

// --- main ---------------------------------------------------------------------------------------------------

try {
  const srv = await serveTestServer({ cors: true });
  cleanups.push(() => srv.close());
  const bundles = await bundle();
  await clientChecks("workerd", srv, workerd(bundles.worker));
  await clientChecks("chromium", srv, await chromium(bundles.page));
  await clientChecks("deno", srv, deno(bundles.deno));
  await workerdServerChecks(bundles["server-worker"], bundles.deno);
} catch (error) {
  fail("setup", error);
} finally {
  await cleanup();
}
finish();
