// Throwaway database servers for scripts/test-databases.mjs, each on a free 127.0.0.1 port in its own temp
// directory: a Postgres cluster (initdb + pg_ctl, run as the `postgres` user when we are root: Postgres
// refuses to run as root), a Redis server, and a small stand-in for Upstash's REST API over that Redis.
// Every start returns { url, stop } and stop() is safe to call twice and after a failed start.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const isRoot = process.getuid?.() === 0;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function postgresBin() {
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin/initdb"))) : [];
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(base, versions.at(-1), "bin") : undefined;
}

const redisBin = () => ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));

/** Installs Debian's postgresql and redis-server when either is missing (CI on a bare machine). */
export function ensureInstalled(log = console.log) {
  const missing = [!postgresBin() && "postgresql", !redisBin() && "redis-server"].filter(Boolean);
  if (!missing.length) return;
  if (!isRoot)
    throw new Error(
      `missing ${missing.join(" and ")}: install them (apt-get install ${missing.join(" ")}) or run as root`,
    );
  log(`installing ${missing.join(" ")} from Debian`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], {
    stdio: ["ignore", "ignore", "inherit"],
    env,
  });
}

/** As the `postgres` user when we are root (the cluster's files are then theirs). */
const asPostgres = (cmd, args) => (isRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args]);

export async function startPostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error("no Postgres server binaries under /usr/lib/postgresql");
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-pg-"));
  if (isRoot)
    chownSync(
      dir,
      Number(execFileSync("id", ["-u", "postgres"]).toString()),
      Number(execFileSync("id", ["-g", "postgres"]).toString()),
    );
  const data = join(dir, "data");
  const port = await freePort();
  const pgCtl = (...args) => spawnSync(...asPostgres(join(bin, "pg_ctl"), ["-D", data, ...args]), { encoding: "utf8" });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    pgCtl("-m", "immediate", "-w", "stop");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const init = spawnSync(
      ...asPostgres(join(bin, "initdb"), [
        "-D",
        data,
        "-U",
        "postgres",
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
      ]),
      { encoding: "utf8" },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
    const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    const start = pgCtl("-l", join(dir, "log"), "-w", "-s", "-o", opts, "start");
    if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr}${start.stdout}`);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
}

export async function startRedis() {
  const bin = redisBin();
  if (!bin) throw new Error("no redis-server");
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-redis-"));
  const port = await freePort();
  // its own process group, so stop() ends it and anything it forked
  const child = spawn(
    bin,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--logfile",
      join(dir, "log"),
    ],
    {
      detached: true,
      stdio: "ignore",
    },
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ping = spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), "ping"], { encoding: "utf8" });
    if (ping.stdout?.trim() === "PONG") break;
    if (i > 100 || child.exitCode !== null) {
      stop();
      throw new Error(`redis-server did not start: ${ping.stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, port, stop };
}

/**
 * Upstash's REST protocol over a real Redis: `POST /` with a JSON command array (and `/pipeline`,
 * `/multi-exec` with arrays of them), `Authorization: Bearer <token>`, replies `{ result }` or `{ error }`,
 * strings base64-encoded when the client sends `Upstash-Encoding: base64`. `send(args)` runs one command.
 */
export async function startUpstashStandIn(send, token) {
  const encode = (v) => {
    if (typeof v === "string") return Buffer.from(v, "utf8").toString("base64");
    return Array.isArray(v) ? v.map(encode) : v;
  };
  const one = async (command, base64) => {
    try {
      const result = await send(command.map(String));
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: String(error?.message ?? error) };
    }
  };
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      const reply = (status, value) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return reply(401, { error: "Unauthorized" });
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const path = new URL(req.url, "http://x").pathname;
      try {
        const parsed = JSON.parse(body);
        if (path === "/pipeline" || path === "/multi-exec") {
          const out = [];
          for (const command of parsed) out.push(await one(command, base64));
          return reply(200, out);
        }
        const out = await one(parsed, base64);
        return reply(out.error ? 400 : 200, out);
      } catch (error) {
        return reply(400, { error: String(error) });
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  let stopped = false;
  const stop = () =>
    stopped
      ? undefined
      : ((stopped = true), new Promise((resolve) => (server.closeAllConnections?.(), server.close(() => resolve()))));
  return { url, stop };
}
