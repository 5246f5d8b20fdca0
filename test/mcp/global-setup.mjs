// Starts what the MCP checks talk to, on 127.0.0.1, and stops it after the run: the test server (server SDK,
// test/mcp/servers/) on Node — twice: as is, and answering other origins (CORS on) for the runtimes' pages — and @modelcontextprotocol/server-everything over streamable HTTP in a child
// process whose every listen is bound to loopback. Builds dist/ first when it is missing (the checks run
// against the package as published). The checks read the servers' URLs with inject("mcp").
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/lib/databases.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

function build() {
  if (existsSync(join(root, "dist/mcp.js")) && existsSync(join(root, "dist/index.js"))) return;
  const built = spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

/** server-everything on a free loopback port; resolves its /mcp URL once it answers, and its stop. */
async function startEverything(cwd) {
  const port = await freePort();
  const bin = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const loopback = join(root, "test/mcp/support/loopback-only.mjs");
  const child = spawn(process.execPath, ["--import", loopback, bin, "streamableHttp"], {
    cwd,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => child.kill("SIGTERM");
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 200; i++) {
    const up = await fetch(url, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (up) return { url, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error(`server-everything did not start:\n${log}`);
}

export default async function setup(project) {
  build();
  const tmp = mkdtempSync(join(tmpdir(), "toolnexus-mcp-servers-"));
  const { serveTestServer } = await import("./servers/serve-node.mjs");
  const testServer = await serveTestServer();
  const corsServer = await serveTestServer({ cors: true });
  let everything;
  try {
    everything = await startEverything(tmp);
  } catch (error) {
    await Promise.all([testServer.close(), corsServer.close()]);
    throw error;
  }
  const served = ({ url, base }) => ({ url, base });
  project.provide("mcp", {
    testServer: served(testServer),
    corsServer: served(corsServer),
    everything: everything.url,
  });
  return async () => {
    everything.stop();
    await Promise.all([testServer.close(), corsServer.close()]);
    rmSync(tmp, { recursive: true, force: true });
  };
}
