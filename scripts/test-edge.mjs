// Vercel's Edge Runtime, emulated by the `edge-runtime` / `@edge-runtime/vm` packages: the shipped bundle
// dist/toolnexus.js evaluated in the strict EdgeVM (no process, Buffer, require; eval refused), where
// test/edge/in-vm.js drives a run → halt → signed resume against a scripted OpenAI-style endpoint on
// 127.0.0.1 and a streamed run through eventStreamResponse → readEventStream; then the example Edge
// function examples/edge/chat.ts served by edge-runtime's own server, driven over HTTP.
// The VM evaluates scripts, not modules, so the ES module is wrapped as an IIFE by esbuild first
// (nothing else changes). Prints `Edge Runtime <version> (EdgeVM): N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import { EdgeVM } from "@edge-runtime/vm";
import { EdgeRuntime, runServer } from "edge-runtime";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const version = JSON.parse(readFileSync(join(root, "node_modules/edge-runtime/package.json"), "utf8")).version;
const { check, fail, cleanup, finish, cleanups } = createChecks(`Edge Runtime ${version} (EdgeVM)`);
if (!existsSync(join(root, "dist/toolnexus.js")))
  spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });

/** A scripted OpenAI-style endpoint: calls `approve`, then answers with the tool's result; streams when asked. */
async function fakeOpenAI() {
  const seen = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const request = JSON.parse(body);
      seen.push({ auth: req.headers.authorization, stream: request.stream === true });
      const last = request.messages.at(-1);
      const message =
        last.role === "tool"
          ? { role: "assistant", content: `Shipped (${last.content}).` }
          : {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "call_1", type: "function", function: { name: "approve", arguments: "{}" } }],
            };
      const finish = message.tool_calls ? "tool_calls" : "stop";
      if (!request.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            choices: [{ index: 0, message, finish_reason: finish }],
            usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
          }),
        );
      }
      const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, ...extra }] })}\n\n`;
      const delta = message.tool_calls
        ? { tool_calls: [{ index: 0, ...message.tool_calls[0] }] }
        : { content: message.content };
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${chunk(delta) + chunk({}, { finish_reason: finish })}data: [DONE]\n\n`);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { baseUrl: `http://127.0.0.1:${server.address().port}/v1`, seen };
}

const asScript = (file, globalName) =>
  esbuild.transformSync(readFileSync(file, "utf8"), {
    format: "iife",
    globalName,
    target: "es2022",
    logLevel: "silent",
  }).code;

async function bundleInTheVM() {
  const endpoint = await fakeOpenAI();
  const edge = new EdgeVM();
  edge.evaluate(asScript(join(root, "dist/toolnexus.js"), "toolnexus"));
  edge.evaluate(readFileSync(join(root, "test/edge/in-vm.js"), "utf8"));
  const scenario = async (name, ...args) =>
    JSON.parse(await edge.evaluate(`scenarios.${name}(${args.map((a) => JSON.stringify(a)).join(", ")})`));

  await check("the VM is strict: no process, Buffer or require; eval and new Function refused", async () => {
    assert.deepEqual(await scenario("globals"), {
      process: "undefined",
      Buffer: "undefined",
      require: "undefined",
      EdgeRuntime: "string",
      eval: "EvalError",
      Function: "EvalError",
    });
  });

  await check("dist/toolnexus.js evaluates in the VM with the package's whole API", async () => {
    const node = Object.keys(await import(pathToFileURL(join(root, "dist/index.js")).href)).sort();
    const inVM = JSON.parse(edge.evaluate("JSON.stringify(Object.keys(toolnexus).sort())"));
    assert.deepEqual(inVM, node);
  });

  await check(
    "run → halt → resume with a signed token (crypto.subtle HMAC); an unsigned answer and a replayed token are refused, the tool ran once",
    async () => {
      endpoint.seen.length = 0;
      const got = await scenario("haltResume", endpoint.baseUrl);
      assert.deepEqual(got, {
        halted: "pending",
        prompt: "Ship it?",
        unsigned: "resume_token",
        done: "done",
        text: "Shipped (approved: yes).",
        again: "resume_token",
        executions: 1,
      });
      assert.deepEqual(endpoint.seen, [
        { auth: "Bearer sk-edge-test", stream: false },
        { auth: "Bearer sk-edge-test", stream: false },
      ]);
    },
  );

  await check(
    "a streamed run through eventStreamResponse → readEventStream halts, and resumeStream finishes it",
    async () => {
      endpoint.seen.length = 0;
      const got = await scenario("streamed", endpoint.baseUrl);
      assert.equal(got.halted, "pending");
      // the call's arguments stream first (tool_input), then the call itself
      assert.deepEqual([got.first.at(0), got.first.at(-1)], ["tool_input", "done"]);
      assert.ok(got.first.includes("tool_call"), got.first);
      assert.ok(got.first.includes("pending"), got.first);
      assert.match(got.contentType, /^text\/event-stream/);
      assert.equal(got.second.at(-1), "done");
      assert.deepEqual([got.text, got.executions], ["Shipped (approved: yes).", 1]);
      assert.deepEqual(
        endpoint.seen.map((s) => s.stream),
        [true, true],
      );
    },
  );
}

async function exampleFunction() {
  const { readEventStream } = await import(pathToFileURL(join(root, "dist/index.js")).href);
  const built = await esbuild.build({
    entryPoints: [join(root, "examples/edge/chat.ts")],
    bundle: true,
    format: "iife",
    globalName: "edgeFunction",
    platform: "neutral",
    target: "es2022",
    alias: { toolnexus: join(root, "dist/toolnexus.js") },
    write: false,
    logLevel: "silent",
  });
  // how an Edge host calls a function's default export
  const initialCode = `${built.outputFiles[0].text}\naddEventListener("fetch", (event) => event.respondWith(edgeFunction.default(event.request)));`;
  const server = await runServer({ runtime: new EdgeRuntime({ initialCode }), host: "127.0.0.1", port: 0 });
  cleanups.push(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/?$/);
  const post = (body) =>
    fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const events = async (res) => {
    const out = [];
    for await (const event of readEventStream(res)) out.push(event);
    return out;
  };

  await check(
    "examples/edge/chat.ts on edge-runtime's server: streams a halt, resumes it, keeps the outcome for a retry and refuses another answer",
    async () => {
      const first = await events(await post({ prompt: "Book a table" }));
      const halted = first.at(-1).result;
      assert.deepEqual(
        [halted.status, halted.pending.kind, halted.pending.prompt],
        ["pending", "approval", "Book a table for 2 at 19:30?"],
      );
      const answer = { id: halted.pending.id, ok: true, data: { output: "yes" } };
      const done = (await events(await post({ runId: halted.runId, answer }))).at(-1).result;
      assert.deepEqual([done.status, done.text], ["done", "Booked: a table for 2 at 19:30."]);
      const retried = (await events(await post({ runId: halted.runId, answer }))).at(-1).result; // a retry: the kept outcome
      assert.deepEqual([retried.status, retried.text], ["done", "Booked: a table for 2 at 19:30."]);
      const other = { ...answer, ok: false, reason: "declined" };
      await assert.rejects(
        events(await post({ runId: halted.runId, answer: other })),
        /run_conflict|already|finished/i,
      );
    },
  );

  await check("examples/edge/chat.ts answers a malformed answer with 400", async () => {
    const res = await post({ runId: "run-x", answer: { ok: "yes" } });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /invalid Answer/);
  });
}

try {
  await bundleInTheVM();
  await exampleFunction();
} catch (error) {
  fail("setup", error);
} finally {
  await cleanup();
}
finish();
