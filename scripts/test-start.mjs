// `npm start` (scripts/start.mjs) on a port that is already taken, or that is not a port: it must say so
// and how to pick another, and exit non-zero before building or starting wrangler. Prints `N passed, N failed`.
import { spawn } from "node:child_process";
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

await cleanup();
finish();
