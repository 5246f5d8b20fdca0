// Runs every example in its runtime and checks what a user would see:
//   node     examples/node/*.ts and examples/agents/*.ts, bundled by esbuild with "toolnexus" left as a bare import, run with
//            node from a temporary project where node_modules/toolnexus is this package (dist/index.js)
//   browser  examples/browser/*.html in Chromium (Playwright, Debian's /usr/bin/chromium); the .ts is
//            compiled on the fly and the CDN URL in the import map is answered with dist/toolnexus.js
//   worker   examples/worker/resume-from-kv.ts in workerd (Miniflare), halting into persisted KV and
//            resumed by a second, fresh instance; examples/worker/cron-expire.ts, whose Cron Trigger
//            continues a run whose approval expired
//   otel     examples/otel/otlp-http.ts in the same project, exporting to an OTLP/HTTP collector stand-in
//   deno     examples/deno/*.ts (from-url.ts has its own test) with the CDN URL mapped to
//            dist/toolnexus.js, plus a `deno check` of them against the sources
// Everything listens on 127.0.0.1 only and is stopped at the end. Prints `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CDN = "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-examples-"));
const { check, fail, cleanup, finish, cleanups } = createChecks("examples", { tmp });

/**
 * Runs a command to completion (with a time limit); resolves with its exit code and output.
 * `reply: [pattern, text]` types `text` once stdout shows `pattern`, like a user at a terminal.
 */
function run(cmd, args, { reply, env, cwd = root, timeout = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let replied = !reply;
    child.stdout.on("data", (d) => {
      stdout += d;
      if (!replied && reply[0].test(stdout)) {
        replied = true;
        child.stdin.end(reply[1]);
      }
    });
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (!reply) child.stdin.end();
  });
}
const ok = (out) => assert.equal(out.code, 0, `exit ${out.code}\n${out.stderr}`);
const lines = (text) => text.trim().split("\n");

if (!existsSync(join(root, "dist/toolnexus.js")) || !existsSync(join(root, "dist/index.js"))) {
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

// --- node --------------------------------------------------------------------------------------------

// a temporary project with this package installed as node_modules/toolnexus (a symlink), as a user has it
const nodeOut = join(tmp, "node-project");

async function nodeExample(name, dir = "node") {
  const outfile = join(nodeOut, `${name}.mjs`);
  await esbuild.build({
    entryPoints: [join(root, "examples", dir, `${name}.ts`)],
    bundle: true,
    packages: "external",
    external: ["toolnexus"],
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

/** A scripted OpenAI-style endpoint: streams a greeting and a `weather` call, records each request. */
async function fakeOpenAI() {
  const seen = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`;
      const call = { index: 0, id: "call_w", type: "function", function: { name: "weather", arguments: "{}" } };
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `${chunk({ content: "Hello! " }) + chunk({ tool_calls: [call] }) + chunk({}, { finish_reason: "tool_calls" })}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, seen };
}

async function nodeExamples() {
  await check("node quickstart.ts: suspends, is saved, a second client resumes it", async () => {
    const out = await run(process.execPath, [await nodeExample("quickstart")]);
    ok(out);
    assert.deepEqual(lines(out.stdout), ["pending Which city?", "done Forecast: 31 °C and humid in Chennai"]);
  });
  await check("node wait-for.ts: waitFor asks on the terminal and the run carries on", async () => {
    const out = await run(process.execPath, [await nodeExample("wait-for")], {
      reply: [/Which city\? $/, "Chennai\n"],
    });
    ok(out);
    assert.match(out.stdout, /Which city\? /);
    assert.match(out.stdout, /Forecast: 31 °C and humid in Chennai\n$/);
  });
  await check("node sqlite-storage.ts: one process halts into an SQLite file, another resumes", async () => {
    const file = await nodeExample("sqlite-storage");
    const env = { RUNS_DB: join(tmp, "runs.db") };
    const first = await run(process.execPath, [file], { env });
    ok(first);
    const [status, runId, requestId] = first.stdout.trim().split(" ");
    assert.equal(status, "pending");
    assert.ok(existsSync(env.RUNS_DB), "the halted run is on disk");
    const second = await run(process.execPath, [file, runId, requestId, "Chennai"], { env });
    ok(second);
    assert.equal(second.stdout.trim(), "done Forecast: 31 °C and humid in Chennai");
    const again = await run(process.execPath, [file, runId, requestId, "Paris"], { env });
    assert.notEqual(again.code, 0, "a second, different answer is refused");
  });
  await check("node approvals.ts: a production deploy waits for an approval, then runs once", async () => {
    const out = await run(process.execPath, [await nodeExample("approvals")]);
    ok(out);
    assert.deepEqual(lines(out.stdout), [
      'approval Approve running the tool deploy? {"tool":"deploy","args":{"version":"v42","env":"production"},"rememberable":true}',
      "done Deployed v42 to production.",
    ]);
  });
  await check("node structured-output.ts: a typed, validated output; a misfit is an OutputError", async () => {
    const out = await run(process.execPath, [await nodeExample("structured-output")]);
    ok(out);
    assert.deepEqual(lines(out.stdout), ["Chennai 31", "not a forecast: true"]);
  });
  await check("node exactly-once.ts: two racing resumes, one tool execution", async () => {
    const out = await run(process.execPath, [await nodeExample("exactly-once")]);
    ok(out);
    const got = lines(out.stdout);
    assert.equal(got.at(-1), "tool executions: 1");
    assert.ok(got.includes("resumed: Forecast: 31 °C and humid in Chennai"), out.stdout);
    assert.ok(
      got
        .slice(0, 2)
        .every((l) => l === "resumed: Forecast: 31 °C and humid in Chennai" || l === "refused: run_conflict"),
      out.stdout,
    );
  });
  await check(
    "agents planner-booker.ts: a booker's approval reaches the planner's run; a fresh client answers it, one booking",
    async () => {
      const out = await run(process.execPath, [await nodeExample("planner-booker", "agents")]);
      ok(out);
      assert.deepEqual(lines(out.stdout), [
        "asks: root/planner.1/booker.1 Approve running the tool book_table?",
        "done: planner-model: booker-model: table booked for Friday",
        "bookings: 1",
      ]);
    },
  );
  await check("node storage-contract.ts: the published storage contract passes under node:test", async () => {
    const out = await run(process.execPath, ["--test", "--test-reporter=tap", await nodeExample("storage-contract")]);
    ok(out);
    assert.match(out.stdout, /^# pass 16$/m, out.stdout.slice(-400));
    assert.match(out.stdout, /^# fail 0$/m);
  });
  await check("node stream-openai.ts: streams from an OpenAI-style endpoint and halts on the tool", async () => {
    const endpoint = await fakeOpenAI();
    const env = {
      BASE_URL: endpoint.url,
      MODEL: "fake-model",
      OPENAI_API_KEY: "sk-test-example",
      OPENROUTER_API_KEY: "",
    };
    const out = await run(process.execPath, [await nodeExample("stream-openai")], { env });
    ok(out);
    assert.match(
      out.stdout,
      /^Hello! \n\[calling weather\]\n\n\[the tool asks: Which city\?\] run run-\S+\n\n\[pending\]\n$/,
    );
    assert.equal(endpoint.seen.length, 1);
    assert.equal(endpoint.seen[0].auth, "Bearer sk-test-example");
    assert.equal(endpoint.seen[0].body.model, "fake-model");
    assert.equal(endpoint.seen[0].body.stream, true);
  });
}

// --- otel --------------------------------------------------------------------------------------------

/** An OTLP/HTTP collector stand-in on 127.0.0.1: keeps every span of every JSON export it receives. */
async function fakeCollector() {
  const spans = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      assert.equal(req.headers["content-type"], "application/json");
      for (const r of JSON.parse(body).resourceSpans)
        for (const scope of r.scopeSpans) spans.push(...scope.spans.map((span) => ({ ...span, path: req.url })));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${server.address().port}/v1/traces`, spans };
}

async function otelExample() {
  await check(
    "otel otlp-http.ts: a collector receives both runs as GenAI spans in one trace, the resume under the halt and linked to it",
    async () => {
      const collector = await fakeCollector();
      // the project has the OpenTelemetry packages installed beside toolnexus, as a user's has
      const otel = join(nodeOut, "node_modules/@opentelemetry");
      symlinkSync(join(root, "node_modules/@opentelemetry"), otel, "dir");
      cleanups.push(async () => unlinkSync(otel));
      const outfile = join(nodeOut, "otlp-http.mjs");
      await esbuild.build({
        entryPoints: [join(root, "examples/otel/otlp-http.ts")],
        bundle: true,
        packages: "external",
        platform: "node",
        format: "esm",
        outfile,
        logLevel: "silent",
      });
      const out = await run(process.execPath, [outfile], { env: { OTLP_URL: collector.url } });
      ok(out);
      assert.deepEqual(lines(out.stdout), ["pending Which city?", "done Forecast: 31 °C and humid in Chennai"]);
      const { spans } = collector;
      assert.ok(spans.every((s) => s.path === "/v1/traces"));
      const [halted, resumed, ...more] = spans.filter((s) => s.name === "invoke_agent");
      assert.equal(more.length, 0, "two runs");
      assert.deepEqual(
        resumed.links.map((l) => [l.traceId, l.spanId]),
        [[halted.traceId, halted.spanId]],
      );
      const under = (run) =>
        spans
          .filter((s) => s.parentSpanId === run.spanId)
          .map((s) => s.name)
          .sort();
      // one trace across the halt: the resumed run is a child of the halted one (and still linked to it)
      assert.equal(resumed.traceId, halted.traceId);
      assert.equal(resumed.parentSpanId, halted.spanId);
      assert.deepEqual(under(halted), ["chat demo", "execute_tool weather", "invoke_agent"]);
      assert.deepEqual(under(resumed), ["chat demo", "execute_tool weather"]);
      assert.ok(halted.events.some((e) => e.name === "pending"));
    },
  );
}

// --- browser -----------------------------------------------------------------------------------------

async function browserServer() {
  const dir = join(root, "examples/browser");
  const server = createServer(async (req, res) => {
    const name = basename(new URL(req.url, "http://x").pathname);
    try {
      if (name.endsWith(".html"))
        return res.writeHead(200, { "content-type": "text/html" }).end(readFileSync(join(dir, name)));
      if (name.endsWith(".js")) {
        const { code } = await esbuild.transform(readFileSync(join(dir, name.replace(/\.js$/, ".ts")), "utf8"), {
          loader: "ts",
          format: "esm",
        });
        return res.writeHead(200, { "content-type": "text/javascript" }).end(code);
      }
    } catch {}
    res.writeHead(404).end("not found");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${server.address().port}`;
}

async function browserExamples() {
  const { chromium } = await import("playwright");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  cleanups.push(() => browser.close());
  const base = await browserServer();
  const bundle = readFileSync(join(root, "dist/toolnexus.js"));
  async function open(file) {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.setDefaultTimeout(10_000);
    await page.route(CDN, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: bundle }));
    await page.goto(`${base}/${file}`);
    return { page, errors };
  }

  await check("browser wait-for-dialog: the Request shows in a <dialog>; approve and decline", async () => {
    const { page, errors } = await open("wait-for-dialog.html");
    await page.click("#go");
    await page.locator("dialog[open] p", { hasText: "Book a table for 2 at 19:30?" }).waitFor();
    await page.click("dialog button[value=yes]");
    await page.locator("#out", { hasText: "Booked: a table for 2 at 19:30." }).waitFor();
    await page.click("#go");
    await page.click("dialog[open] button[value=no]");
    await page.locator("#out", { hasText: "declined" }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  await check("browser web-storage: a halted run survives a reload and resumes", async () => {
    const { page, errors } = await open("web-storage.html");
    await page.click("#start");
    await page.locator("form:not([hidden]) span", { hasText: "Which city?" }).waitFor();
    await page.reload();
    await page.locator("form:not([hidden]) span", { hasText: "Which city?" }).waitFor();
    await page.fill("input[name=reply]", "Chennai");
    await page.click("form button");
    await page.locator("#out", { hasText: "Sunny in Chennai." }).waitFor();
    assert.equal(await page.locator("form").isHidden(), true);
    const keys = await page.evaluate(() => Object.keys(localStorage));
    assert.ok(
      keys.some((k) => k.startsWith("toolnexus:")),
      `the run was stored through webStorage: ${keys}`,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// --- worker ------------------------------------------------------------------------------------------

/** An example Worker bundled as wrangler would, against the built package. */
async function workerScript(entry) {
  const built = await esbuild.build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    alias: { toolnexus: join(root, "dist/index.js") },
    write: false,
    logLevel: "silent",
  });
  return built.outputFiles[0].text;
}

async function workerExample() {
  const { Miniflare } = await import("miniflare");
  const script = await workerScript("examples/worker/resume-from-kv.ts");
  const kvPersist = join(tmp, "kv");
  const instance = () =>
    new Miniflare({
      modules: true,
      script,
      compatibilityDate: "2026-04-20",
      kvNamespaces: ["RUNS"],
      kvPersist,
      cf: false,
    });
  const post = async (mf, body) => {
    const res = await mf.dispatchFetch("http://worker/", { method: "POST", body: JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };

  await check("worker resume-from-kv.ts: halts into KV; a fresh workerd instance resumes it", async () => {
    const first = instance();
    cleanups.push(() => first.dispose());
    const halted = await post(first, { prompt: "Ship it" });
    assert.equal(halted.status, 200);
    assert.equal(halted.json.status, "pending");
    assert.equal(halted.json.pending.kind, "approval");
    await first.dispose();

    const second = instance(); // nothing in memory: only what KV persisted
    cleanups.push(() => second.dispose());
    const answer = { id: halted.json.pending.id, ok: true, data: { output: "approved" } };
    const done = await post(second, { runId: halted.json.runId, answer });
    assert.deepEqual([done.status, done.json.status, done.json.text], [200, "done", "Deployed v42."]);

    const bad = await post(second, { runId: halted.json.runId, answer: { id: answer.id, ok: "yes" } });
    assert.deepEqual([bad.status, bad.json.error], [400, "invalid_answer"]);
    const unknown = await post(second, { runId: "run-unknown", answer });
    assert.deepEqual([unknown.status, unknown.json.error], [404, "run_not_found"]);
    await second.dispose();
  });
}

async function cronExample() {
  const { Miniflare } = await import("miniflare");
  const script = await workerScript("examples/worker/cron-expire.ts");
  await check("worker cron-expire.ts: an approval past its deadline is continued by the Cron Trigger", async () => {
    const mf = new Miniflare({
      modules: true,
      script,
      compatibilityDate: "2026-04-20",
      kvNamespaces: ["RUNS"],
      // a deadline that has passed by the time the trigger runs (the example's default is 15 minutes)
      bindings: { APPROVAL_TIMEOUT_SECONDS: "0.001" },
      cf: false,
    });
    cleanups.push(() => mf.dispose());
    const started = await mf.dispatchFetch("http://worker/", { method: "POST", body: '{"prompt":"Ship it"}' });
    const halted = await started.json();
    assert.equal(halted.status, "pending");
    assert.equal(halted.requests[0].kind, "approval");
    assert.ok(halted.requests[0].expiresAt, "the approval carries its deadline");
    const worker = await mf.getWorker();
    await worker.scheduled({ cron: "* * * * *" });
    const after = await (await mf.dispatchFetch(`http://worker/?runId=${halted.runId}`)).json();
    assert.deepEqual([after.status, after.requests], ["done", []]);
    await mf.dispose();
  });
}

// --- deno --------------------------------------------------------------------------------------------

const deno = join(root, "node_modules/.bin/deno");
const denoEnv = {
  DENO_NO_UPDATE_CHECK: "1",
  DENO_NO_PROMPT: "1",
  DENO_DIR: join(root, "node_modules/.cache/deno"),
  NO_COLOR: "1",
};
const denoFlags = ["--no-remote", "--cached-only", "--no-lock", "--node-modules-dir=manual"];

function importMap(name, target) {
  const file = join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify({ imports: { [CDN]: pathToFileURL(join(root, target)).href } }));
  return `--import-map=${file}`;
}

async function denoExamples() {
  const files = readdirSync(join(root, "examples/deno")).filter((f) => f.endsWith(".ts") && f !== "from-url.ts");
  const runMap = importMap("deno-run", "dist/toolnexus.js");

  await check("deno check: the Deno examples typecheck against the sources", async () => {
    const flags = [...denoFlags, "--unstable-sloppy-imports", "--unstable-kv", importMap("deno-check", "src/index.ts")];
    const out = await run(deno, ["check", ...flags, ...files.map((f) => `examples/deno/${f}`)], {
      env: denoEnv,
      timeout: 120_000,
    });
    ok(out);
  });

  await check("deno deno-kv.ts: halts into Deno KV; after a reopen a second client resumes", async () => {
    const db = join(tmp, "deno-kv.db");
    const perms = ["--unstable-kv", `--allow-read=${tmp}`, `--allow-write=${tmp}`, "--no-check", runMap];
    const out = await run(deno, ["run", ...denoFlags, ...perms, "examples/deno/deno-kv.ts", db], { env: denoEnv });
    ok(out);
    assert.deepEqual(lines(out.stdout), ["pending Which city?", "done Forecast: 31 °C and humid in Chennai"]);
  });

  await check("deno serve.ts: streams a run over HTTP, resumes it from Deno KV, refuses a second answer", async () => {
    const { readEventStream } = await import(pathToFileURL(join(root, "dist/index.js")).href);
    const perms = [
      "--unstable-kv",
      "--allow-net=127.0.0.1",
      `--allow-read=${tmp}`,
      `--allow-write=${tmp}`,
      "--no-check",
      runMap,
    ];
    const child = spawn(deno, ["run", ...denoFlags, ...perms, "examples/deno/serve.ts", join(tmp, "serve.db"), "0"], {
      cwd: root,
      env: { ...process.env, ...denoEnv },
    });
    cleanups.push(async () => child.exitCode === null && child.kill("SIGKILL"));
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    for (let i = 0; i < 300 && !/listening on/.test(log) && child.exitCode === null; i++)
      await new Promise((r) => setTimeout(r, 100));
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1];
    assert.ok(base, `serve.ts did not start:\n${log}`);
    const post = (path, body) => fetch(base + path, { method: "POST", body: JSON.stringify(body) });
    const events = async (res) => {
      const out = [];
      for await (const event of readEventStream(res)) out.push(event);
      return out;
    };
    const halted = (await events(await post("/chat", { prompt: "What's the weather?" }))).at(-1).result;
    assert.equal(halted.status, "pending");
    const answer = { id: halted.pending.id, ok: true, data: { output: "Chennai" } };
    const done = (await events(await post("/answer", { runId: halted.runId, answer }))).at(-1).result;
    assert.equal(done.text, "Forecast: 31 °C and humid in Chennai");
    const other = { ...answer, data: { output: "Lima" } };
    await assert.rejects(events(await post("/answer", { runId: halted.runId, answer: other })), /run_conflict|already/);
    assert.equal((await post("/answer", { runId: halted.runId, answer: { ok: true } })).status, 400);
    child.kill("SIGTERM");
  });
}

try {
  mkdirSync(join(nodeOut, "node_modules"), { recursive: true });
  symlinkSync(root, join(nodeOut, "node_modules/toolnexus"), "dir");
  symlinkSync(join(root, "node_modules/better-sqlite3"), join(nodeOut, "node_modules/better-sqlite3"), "dir");
  cleanups.unshift(async () => unlinkSync(join(nodeOut, "node_modules/toolnexus"))); // runs last, before the temp dir goes
  cleanups.unshift(async () => unlinkSync(join(nodeOut, "node_modules/better-sqlite3")));
  await nodeExamples();
  await otelExample();
  await browserExamples();
  await workerExample();
  await cronExample();
  await denoExamples();
} catch (error) {
  fail("setup", error);
} finally {
  await cleanup();
}
finish();
