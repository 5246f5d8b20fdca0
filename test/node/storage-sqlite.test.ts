// sqliteStorage over the SQLite binding this Node has (node:sqlite on Node ≥ 22.13, better-sqlite3 on Node 20):
// the published contract and crash matrix over a file, the busy_timeout it sets, bad options refused, and two
// processes opening one new file together and racing on it with no update lost.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { isToolnexusError, sqliteStorage } from "toolnexus";
import { crashMatrix, raceSweepers, storageContract } from "toolnexus/testing";
import { binding } from "./support/sqlite-binding";

const dir = mkdtempSync(join(tmpdir(), "toolnexus-sqlite-"));
const db = binding.open(join(dir, "runs.db"));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

storageContract(`sqliteStorage over ${binding.name}`, ({ now }) => sqliteStorage({ database: db, now }), {
  describe,
  it,
  ttl: "clock",
});
crashMatrix(`sqliteStorage over ${binding.name}`, () => sqliteStorage({ database: db, table: "runs_crash" }), {
  describe,
  it,
});

const pragma = (database: typeof db, name: string) =>
  Object.values(database.prepare(`pragma ${name}`).all()[0] as Record<string, unknown>)[0];

describe(`sqliteStorage over ${binding.name}`, () => {
  it("two sweepers over two connections to one file at once: every due run continued once, by one of them", async () => {
    const other = binding.open(join(dir, "runs.db"));
    try {
      let i = 0;
      const make = () => sqliteStorage({ database: i++ % 2 ? other : db, table: "runs_sweep" });
      const outcome = await raceSweepers(make(), { runs: 10, sweepers: 2, make });
      expect(new Set(outcome.continued).size).toBe(10);
      expect([outcome.continued.length, outcome.continuations, outcome.executions]).toEqual([10, 10, 0]);
    } finally {
      other.close();
    }
  });

  it("waits 5 s for another process's write by default (busy_timeout), or as long as asked", () => {
    const other = binding.open(join(dir, "busy.db"));
    other.exec("pragma busy_timeout = 0");
    sqliteStorage({ database: other });
    expect(pragma(other, "busy_timeout")).toBe(5000);
    sqliteStorage({ database: other, busyTimeoutMs: 250 });
    expect(pragma(other, "busy_timeout")).toBe(250);
    other.close();
  });

  it("switches the file to WAL, which writers in several processes need, unless told not to", () => {
    const kept = binding.open(join(dir, "kept.db"));
    sqliteStorage({ database: kept, wal: false });
    expect(pragma(kept, "journal_mode")).toBe("delete");
    sqliteStorage({ database: kept });
    expect(pragma(kept, "journal_mode")).toBe("wal");
    kept.close();
  });

  it("refuses a missing or closed database, a bad table and a bad busyTimeoutMs with a typed config error", () => {
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return { typed: isToolnexusError(error), code: (error as { code?: string }).code, message: String(error) };
      }
      return { typed: false, code: "none", message: "no error" };
    };
    expect(refusal(() => sqliteStorage({} as never))).toMatchObject({ typed: true, code: "config" });
    expect(refusal(() => sqliteStorage({ database: db, table: "runs; drop table x" }))).toMatchObject({
      typed: true,
      message: expect.stringContaining("runs; drop table x"),
    });
    expect(refusal(() => sqliteStorage({ database: db, busyTimeoutMs: -1 }))).toMatchObject({
      typed: true,
      message: expect.stringContaining("-1"),
    });
    const closed = binding.open(join(dir, "closed.db"));
    closed.close();
    expect(refusal(() => sqliteStorage({ database: closed }))).toMatchObject({ typed: true, code: "config" });
  });

  it("keeps the table it is given: two tables in one file do not see each other", async () => {
    const a = sqliteStorage({ database: db, table: "runs_a" });
    const b = sqliteStorage({ database: db, table: "runs_b" });
    await a.set("k", "in a");
    expect(await b.get("k")).toBeUndefined();
    expect(await a.get("k")).toBe("in a");
  });

  it("loses no update when three processes open one new file together and race compare-and-set on it", async () => {
    const child = join(dir, "race-child.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("./support/sqlite-race-child.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: child,
      packages: "external",
      alias: { toolnexus: fileURLToPath(new URL("../../src/index.ts", import.meta.url)) },
      logLevel: "silent",
    });
    symlinkSync(fileURLToPath(new URL("../../node_modules", import.meta.url)), join(dir, "node_modules")); // the bindings
    const race = async (file: string, rounds: number) => {
      const outcomes = await raceProcesses(child, join(dir, file), rounds, 3);
      const check = binding.open(join(dir, file));
      const counter = await sqliteStorage({ database: check }).get("counter");
      check.close();
      return { counter, claims: outcomes.reduce((sum, o) => sum + o.claims, 0) };
    };
    expect(await race("race.db", 400)).toEqual({ counter: String(3 * 400), claims: 400 });
    // SQLite refuses a switch to WAL at once while another process holds the new file, whatever busy_timeout
    // says: each open must wait its turn (seen failing one open in ten before it did)
    for (let i = 0; i < 12; i++) expect(await race(`open-${i}.db`, 1)).toEqual({ counter: "3", claims: 1 });
  }, 60_000);
});

interface Outcome {
  claims: number;
  retries: number;
}

/** Starts `count` children on one file, lets them go together once all are ready, and collects their outcomes. */
async function raceProcesses(script: string, file: string, rounds: number, count: number): Promise<Outcome[]> {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, [script, file, String(rounds)], { cwd: root, stdio: ["pipe", "pipe", "inherit"] }),
  );
  const lines = children.map((c) => {
    let buffered = "";
    const waiters: ((line: string) => void)[] = [];
    c.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        waiters.shift()?.(line);
      }
    });
    c.on("close", (code) => {
      for (const waiter of waiters.splice(0)) waiter(`exited with ${code}`);
    });
    return () => new Promise<string>((resolve) => waiters.push(resolve));
  });
  const ready = lines.map((next) => next());
  expect(await Promise.all(ready)).toEqual(children.map(() => "ready"));
  const done = lines.map((next) => next());
  const exited = children.map((c) => new Promise((resolve) => c.once("close", resolve)));
  for (const c of children) c.stdin.end("go\n");
  const outcomes = (await Promise.all(done)).map((line) => JSON.parse(line) as Outcome);
  await Promise.all(exited);
  return outcomes;
}
