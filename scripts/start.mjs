// `npm start`: builds the SDK bundle the page loads (dist/), serves the demo's MCP server (the trip planner,
// examples/mcp/trip-planner.mjs) in this process on a free port of 127.0.0.1, then runs the demo Worker with
// `wrangler dev` on 127.0.0.1 — the MCP server's URL passed as the MCP_URL var — local KV / Durable Object
// state persisted under .wrangler/, telemetry, update checks and the request.cf download off. Prints the URLs
// once the demo answers; Ctrl-C stops wrangler and everything it started, quietly, and the MCP server goes
// with this process whichever way it ends. A port something else already holds is reported before anything
// starts, with how to pick another (wrangler itself would only exit with status 1).
//   node scripts/start.mjs [--port 8787] [--persist-to .wrangler/state] [--env-file path]
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createTripPlanner } from "../examples/mcp/trip-planner.mjs";
import { serveMcp } from "../examples/mcp/serve-node.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "8787" },
    "persist-to": { type: "string", default: ".wrangler/state" },
    "env-file": { type: "string" },
    "skip-build": { type: "boolean", default: false },
  },
});
const port = Number(values.port);
if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) {
  console.error(`start: --port must be a port number from 1 to 65535, got ${JSON.stringify(values.port)}`);
  process.exit(1);
}
/** Why the demo cannot listen on 127.0.0.1:port (a bind test, released at once), or undefined when it can. */
const unusable = await new Promise((resolve) => {
  const probe = createServer();
  probe.once("error", (error) => resolve(error.code ?? String(error)));
  probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(undefined)));
});
if (unusable !== undefined) {
  const why = unusable === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${unusable})`;
  console.error(
    `start: port ${port} on 127.0.0.1 ${why} — stop what holds it, or pick another port: npm start -- --port ${port === 65535 ? 8788 : port + 1} (or PORT=${port === 65535 ? 8788 : port + 1} npm start)`,
  );
  process.exit(1);
}

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false", // no telemetry
  CLOUDFLARE_CF_FETCH_ENABLED: "false", // miniflare: no request.cf download
  WRANGLER_HIDE_BANNER: "true", // the banner runs an npm "update available" check
};

if (!values["skip-build"]) {
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  if (build.status !== 0) {
    console.error("start: `npm run build` failed — the page needs dist/toolnexus.js");
    process.exit(build.status ?? 1);
  }
}

let mcp;
try {
  mcp = await serveMcp(createTripPlanner());
} catch (error) {
  console.error(`start: the demo's MCP server could not listen on 127.0.0.1 (${error.code ?? error.message})`);
  process.exit(1);
}

// --assets dist: the page imports the SDK bundle from /toolnexus.js
const args = [
  "dev",
  "--ip",
  "127.0.0.1",
  "--port",
  values.port,
  "--persist-to",
  values["persist-to"],
  "--assets",
  "dist",
  "--var",
  `MCP_URL:${mcp.url}`,
];
args.push("--inspector-port", "0", "--show-interactive-dev-session=false", "--log-level", "warn");
if (values["env-file"]) args.push("--env-file", values["env-file"]);
// its own process group, so a Ctrl-C reaches it only through stop() below, and a last resort stops workerd and
// esbuild with it. Its output is passed on (in colour on a terminal) until the demo is being stopped: what a
// shutdown prints — a request cut off as the runtime goes away is "Network connection lost" — is not news.
const color = process.stdout.isTTY && !("FORCE_COLOR" in process.env) && !("NO_COLOR" in process.env);
const wrangler = spawn(`${root}node_modules/.bin/wrangler`, args, {
  cwd: root,
  env: color ? { ...env, FORCE_COLOR: "1" } : env,
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
});
let stopping = false;
wrangler.stdout.on("data", (chunk) => stopping || process.stdout.write(chunk));
wrangler.stderr.on("data", (chunk) => stopping || process.stderr.write(chunk));

/**
 * Stops the demo as a Ctrl-C in wrangler's own terminal would: SIGINT to wrangler, which takes its runtime
 * down in order; the whole group is killed only if it is still there after 5 s. Then this process exits
 * (the MCP server with it).
 */
function stop(code) {
  if (stopping) return;
  stopping = true;
  const signal = (name, group) => {
    try {
      process.kill(group ? -wrangler.pid : wrangler.pid, name);
    } catch {}
  };
  signal("SIGINT", false);
  const force = setTimeout(() => signal("SIGKILL", true), 5000);
  force.unref();
  wrangler.once("exit", () => {
    signal("SIGKILL", true); // anything wrangler left behind in its group
    process.exit(code);
  });
  if (wrangler.exitCode !== null) process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
wrangler.on("exit", (code) => {
  if (!stopping) {
    console.error(`start: wrangler exited (${code ?? "signal"}) — its own output above says why`);
    process.exit(code || 1);
  }
});

const url = `http://127.0.0.1:${values.port}/`;
let ready = false;
for (let i = 0; i < 600 && !stopping && !ready; i++) {
  ready = await fetch(url).then(
    (r) => r.ok,
    () => false,
  );
  if (!ready) await new Promise((r) => setTimeout(r, 100));
}
if (ready)
  console.log(`\n  toolnexus demo ready: ${url}\n  MCP server (trip planner): ${mcp.url}\n  (Ctrl-C to stop)\n`);
else if (!stopping) console.error(`start: the demo did not answer on ${url} within 60 s — see wrangler's output above`);
