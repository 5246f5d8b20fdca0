// The database adapters against real servers: installs Debian's postgresql and redis-server when missing,
// starts a throwaway Postgres cluster and a Redis server on free 127.0.0.1 ports (plus a local stand-in for
// Upstash's REST API over that Redis), then runs
//   test/databases/*.test.mjs   with node:test, importing the built package by name: the published
//                               storage contract and resume races through pg, postgres, node-redis,
//                               ioredis and @upstash/redis
//   examples/node/postgres-storage.ts   halting into Postgres in one process and resuming in another
// and stops every server whatever happened. Prints `N passed, N failed` last.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import pg from "pg";
import { createClient } from "redis";
import { createChecks } from "./lib/checks.mjs";
import { ensureInstalled, startPostgres, startRedis, startUpstashStandIn } from "./lib/databases.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { check, fail, cleanup, cleanups, counts } = createChecks("databases");
let tally = { passed: 0, failed: 0 };

// whatever happens below, the servers stop: on normal exit (finally), on an exception, and on a signal
const stopAll = async () => cleanup();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.once(signal, () => stopAll().finally(() => process.exit(130)));

function run(cmd, args, { env, timeout = 300_000, echo = false } = {}) {
  return new Promise((resolve) => {
    // its own process group, killed whole if it overruns
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => ((stdout += d), echo && process.stdout.write(d)));
    child.stderr.on("data", (d) => ((stderr += d), echo && process.stderr.write(d)));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, timeout);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

try {
  ensureInstalled();
  if (!existsSync(join(root, "dist/index.js")) || !existsSync(join(root, "dist/testing.js"))) {
    const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  const postgres = await startPostgres();
  cleanups.push(postgres.stop);
  const redis = await startRedis();
  cleanups.push(redis.stop);
  const forwarder = await createClient({ url: redis.url }).connect();
  cleanups.push(() => forwarder.quit());
  const token = crypto.randomUUID(); // never printed
  const upstash = await startUpstashStandIn((args) => forwarder.sendCommand(args), token);
  cleanups.push(upstash.stop);
  console.log(
    `postgres and redis on 127.0.0.1 (ports ${postgres.port}, ${redis.port}); upstash stand-in at ${upstash.url}`,
  );
  const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, UPSTASH_URL: upstash.url, UPSTASH_TOKEN: token };

  // the suites: node:test prints its spec to our stdout and a TAP summary to a file we count from
  const tmp = mkdtempSync(join(root, ".databases-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const tap = join(tmp, "report.tap");
  const files = readdirSync(join(root, "test/databases"))
    .filter((f) => f.endsWith(".test.mjs"))
    .map((f) => join("test/databases", f));
  const reporters = [
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=tap",
    `--test-reporter-destination=${tap}`,
  ];
  const suite = await run(process.execPath, ["--test", ...reporters, ...files], { env, echo: true });
  const report = existsSync(tap) ? readFileSync(tap, "utf8") : "";
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(report)?.[1] ?? NaN);
  const [pass, failures, skipped, todo] = [count("pass"), count("fail"), count("skipped"), count("todo")];
  if (Number.isNaN(pass) || Number.isNaN(failures)) {
    fail("node --test test/databases", new Error(`no TAP summary (exit ${suite.code})\n${suite.stderr}`));
  } else {
    tally = { passed: pass, failed: failures + (skipped || 0) + (todo || 0) };
    if (skipped || todo) console.log(`  ✗ ${skipped + todo} skipped/todo tests — not allowed`);
    if (suite.code !== 0 && !tally.failed) tally.failed++; // a file that failed to load
  }

  // the example, in two processes over the same database
  await check("node postgres-storage.ts: one process halts into Postgres, another resumes it", async () => {
    const file = join(tmp, "postgres-storage.mjs");
    await esbuild.build({
      entryPoints: [join(root, "examples/node/postgres-storage.ts")],
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      outfile: file,
      logLevel: "silent",
    });
    const first = await run(process.execPath, [file], { env, timeout: 60_000 });
    assert.equal(first.code, 0, first.stderr);
    const [status, runId, requestId] = first.stdout.trim().split(" ");
    assert.equal(status, "pending");
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    const { rows } = await db
      .query("select count(*)::int as n from toolnexus_runs where key = $1", [`run:${runId}`])
      .finally(() => db.end());
    assert.deepEqual(rows, [{ n: 1 }], "the halted run is a row of toolnexus_runs");
    const second = await run(process.execPath, [file, runId, requestId, "Chennai"], { env, timeout: 60_000 });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), "done Forecast: 31 °C and humid in Chennai");
  });
} catch (error) {
  fail("database servers", error);
} finally {
  await stopAll();
}
console.log(`${tally.passed + counts.passed} passed, ${tally.failed + counts.failed} failed`);
process.exit(tally.failed + counts.failed ? 1 : 0);
