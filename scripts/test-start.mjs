// `npm start` (scripts/start.mjs) on a port that is already taken, or that is not a port: it must say so
// and how to pick another, and exit non-zero before building or starting wrangler. And a Ctrl-C of the
// running demo ends it quietly: exit code 0, nothing printed after it, the port free again.
// Prints `N passed, N failed`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { check, cleanups, cleanup, finish } = createChecks("start");

/** Runs start.mjs with `args`; resolves with its exit code and output, or rejects after 20 s. */
function start(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/start.mjs", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`start.mjs was still running after 20 s (it should have refused the port):\n${out}`));
    }, 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

await check("a port already in use is reported with how to pick another, before anything starts", async () => {
  const holder = createServer();
  await new Promise((resolve) => holder.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
  const { port } = holder.address();
  const { code, out } = await start(["--port", String(port)]);
  assert.equal(code, 1, out);
  assert.match(out, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  assert.match(out, /--port \d+/);
  assert.doesNotMatch(out, /wrangler exited/);
});

await check("a --port that is not a port number is refused with what is expected", async () => {
  const { code, out } = await start(["--port", "80a"]);
  assert.equal(code, 1, out);
  assert.match(out, /--port must be a port number from 1 to 65535, got "80a"/);
});

/** A port of 127.0.0.1 nothing listens on now (the OS picks it); `free(port)`: whether it is free again. */
const listenable = (port) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(undefined));
    probe.listen(port, "127.0.0.1", () => {
      const { port: got } = probe.address();
      probe.close(() => resolve(got));
    });
  });

await check(
  "Ctrl-C on the running demo stops it quietly: exit 0, nothing printed after it, the port free",
  async () => {
    if (!existsSync(fileURLToPath(new URL("../dist/toolnexus.js", import.meta.url))))
      spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
    const port = await listenable(0);
    const child = spawn(process.execPath, ["scripts/start.mjs", "--skip-build", "--port", String(port)], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"));
    let out = "";
    const ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo was not ready after 90 s:\n${out}`)), 90_000);
      const seen = (d) => {
        out += d;
        if (out.includes("demo ready")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on("data", seen);
      child.stderr.on("data", seen);
    });
    await ready;
    // a request in flight as the demo goes away: the page's, say
    const inFlight = fetch(`http://127.0.0.1:${port}/api/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "Plan a trip to Lisbon" }),
      signal: AbortSignal.timeout(20_000),
    }).then(
      (r) => r.text(),
      () => "",
    );
    const before = out.length;
    child.kill("SIGINT"); // what a Ctrl-C sends this process (wrangler runs in a process group of its own)
    const code = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still running 15 s after Ctrl-C:\n${out}`)), 15_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    await inFlight;
    assert.equal(code, 0, out);
    assert.equal(out.slice(before), "", "printed after Ctrl-C");
    assert.equal(await listenable(port), port, "the port is free again");
  },
);

await cleanup();
finish();
