// The launcher of the `npm start` demo for the tests in test/demo/: the Worker in workerd (scripts/start.mjs, which
// runs `wrangler dev`, on a free 127.0.0.1 port, a fresh --persist-to directory) or the same page and endpoint
// under Deno.serve (scripts/lib/demo-deno.mjs, Deno KV), each with the demo's MCP server
// (examples/mcp/trip-planner.mjs) on 127.0.0.1; and Debian's Chromium through Playwright. Each start resolves
// `{ name, storageName, base, mcp, log, stop, restart }` once the server said it is ready. `ctx` is `{ tmp,
// cleanups }`: the files go under `tmp`, and what a start starts is pushed on `cleanups` (run them in reverse
// after the last test, whatever happened).
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright";
import { serveMcp } from "../../examples/mcp/serve-node.mjs";
import { createTripPlanner } from "../../examples/mcp/trip-planner.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** Chromium, headless, with no DNS but loopback. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
}

/** Runs `cleanups` in reverse, each failure ignored. */
export async function runCleanups(cleanups) {
  for (const fn of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** `npm start`'s script on `port` (a free one by default); resolves once it printed "ready". */
export async function startDemo(ctx, name, extra = [], port) {
  const { tmp } = ctx;
  port ??= await freePort();
  const args = ["scripts/start.mjs", "--port", String(port), "--persist-to", join(tmp, `state-${name}`), ...extra];
  if (existsSync(join(root, "dist/toolnexus.js"))) args.push("--skip-build");
  const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = await ready(ctx, child, /demo ready: /, 900);
  const mcp = /MCP server \(trip planner\): (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(log())?.[1];
  return {
    name: "workerd",
    storageName: /Durable Object/,
    base: `http://127.0.0.1:${port}`,
    mcp,
    log,
    stop: () => stopProcess(child),
    restart: () => startDemo(ctx, name, extra, port),
  };
}

/**
 * The same demo under Deno.serve (scripts/lib/demo-deno.mjs), Deno KV in a file that survives a restart, and the
 * demo's MCP server served here as start.mjs serves it (kept across a restart of the demo, stopped at cleanup).
 */
export async function startDeno(ctx, port, mcp) {
  const { tmp, cleanups } = ctx;
  port ??= await freePort();
  if (!mcp) {
    mcp = await serveMcp(createTripPlanner());
    cleanups.push(() => mcp.close());
  }
  const deno = join(root, "node_modules/.bin/deno");
  const map = join(tmp, "deno-import-map.json");
  const dist = (file) => pathToFileURL(join(root, "dist", file)).href;
  writeFileSync(map, JSON.stringify({ imports: { toolnexus: dist("index.js"), "toolnexus/mcp": dist("mcp.js") } }));
  const flags = ["--no-remote", "--cached-only", "--no-lock", "--node-modules-dir=manual", "--no-check"];
  const perms = ["--unstable-kv", "--unstable-sloppy-imports", "--allow-net=127.0.0.1", `--allow-read=${root},${tmp}`];
  perms.push(`--allow-write=${tmp}`, `--import-map=${map}`);
  const args = [
    "run",
    ...flags,
    ...perms,
    "scripts/lib/demo-deno.mjs",
    String(port),
    join(tmp, "deno.kv"),
    join(root, "dist"),
    mcp.url,
  ];
  const env = {
    ...process.env,
    DENO_NO_UPDATE_CHECK: "1",
    DENO_NO_PROMPT: "1",
    DENO_DIR: join(root, "node_modules/.cache/deno"),
  };
  const child = spawn(deno, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = await ready(ctx, child, /listening on /, 300);
  return {
    name: "Deno.serve",
    storageName: /Deno KV/,
    base: `http://127.0.0.1:${port}`,
    mcp: mcp.base,
    log,
    stop: () => stopProcess(child, true),
    restart: () => startDeno(ctx, port, mcp),
  };
}

/** Waits for `pattern` in the child's output; the child is stopped at cleanup whatever happens. */
async function ready({ cleanups }, child, pattern, tenths) {
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  cleanups.push(() => stopProcess(child));
  for (let i = 0; i < tenths && !pattern.test(log); i++) {
    if (child.exitCode !== null) throw new Error(`the server exited early (${child.exitCode}):\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!pattern.test(log)) throw new Error(`the server did not become ready:\n${log}`);
  return () => log;
}

async function stopProcess(child, group = false) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(group ? -child.pid : child.pid, "SIGTERM"); // start.mjs stops wrangler's process group, then exits
  } catch {}
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 8000);
  await exited;
  clearTimeout(timer);
}
