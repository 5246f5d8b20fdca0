// d1Storage against a real (local) D1 database in workerd: binding DB from wrangler.toml.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1Storage, isToolnexusError } from "toolnexus";
import { crashMatrix, raceResumes, raceSweepers } from "toolnexus/testing";
import { storageContract } from "../support/storage-contract";

storageContract("d1Storage (Cloudflare D1)", ({ now }) => d1Storage({ database: env.DB, now }), {
  atomic: true,
  ttl: "clock",
});
storageContract(
  "d1Storage in its own table",
  ({ now }) => d1Storage({ database: env.DB, table: "runs_contract", now }),
  { atomic: true, ttl: "clock" },
);

crashMatrix("d1Storage (Cloudflare D1)", () => d1Storage({ database: env.DB, table: "runs_crash" }), { describe, it });

const rowsOf = async (table: string) =>
  (
    await env.DB.prepare(`select key, value, expires_at from "${table}" order by key`).all<{
      key: string;
      value: string;
      expires_at: number | null;
    }>()
  ).results;

describe("d1Storage", () => {
  it("creates its table on first use and keeps plain keys and values readable by other tools", async () => {
    const table = `runs_${crypto.randomUUID().replaceAll("-", "")}`;
    const storage = d1Storage({ database: env.DB, table, now: () => 1_000 });
    await storage.set("run:1", '{"v":1}', { ttlSeconds: 60 });
    expect(await rowsOf(table)).toEqual([{ key: "run:1", value: '{"v":1}', expires_at: 61_000 }]);
  });

  it("sweep() deletes the expired rows and keeps the rest", async () => {
    let now = 1_000;
    const table = `sweep_${crypto.randomUUID().replaceAll("-", "")}`;
    const storage = d1Storage({ database: env.DB, table, now: () => now });
    await storage.set("short", "v", { ttlSeconds: 1 });
    await storage.set("long", "v", { ttlSeconds: 600 });
    await storage.set("forever", "v");
    now += 2_000;
    expect(await storage.sweep()).toBe(1);
    expect((await rowsOf(table)).map((r) => r.key)).toEqual(["forever", "long"]);
  });

  it("refuses a table name that is not a plain identifier with a typed config error", () => {
    for (const table of ["runs; drop table x", 'a"b', "1runs", "", "app.runs", "x".repeat(64)]) {
      let error: unknown;
      try {
        d1Storage({ database: env.DB, table });
      } catch (e) {
        error = e;
      }
      expect({ table, typed: isToolnexusError(error), code: (error as { code?: string })?.code }).toEqual({
        table,
        typed: true,
        code: "config",
      });
    }
    expect(() => d1Storage({} as never)).toThrow("env.DB");
  });

  it("with createTable: false, leaves the schema to you and reports the missing table", async () => {
    const storage = d1Storage({
      database: env.DB,
      table: `absent_${crypto.randomUUID().replaceAll("-", "")}`,
      createTable: false,
    });
    await expect(storage.get("k")).rejects.toThrow("no such table");
  });

  it("two sweepers at once: every due run continued once, by one of them", async () => {
    const make = () => d1Storage({ database: env.DB, table: "runs_sweep" });
    const outcome = await raceSweepers(make(), { runs: 10, sweepers: 2, make });
    expect(new Set(outcome.continued).size).toBe(10);
    expect([outcome.continued.length, outcome.continuations, outcome.executions]).toEqual([10, 10, 0]);
  });

  it("100 resumes from 100 adapters over one database: the tool runs once", async () => {
    const make = () => d1Storage({ database: env.DB, table: "runs_race" });
    const outcome = await raceResumes(make(), 100, make);
    expect({ executions: outcome.executions, fulfilled: outcome.fulfilled }).toEqual({ executions: 1, fulfilled: 1 });
    expect(outcome.rejected.filter((c) => c !== "run_conflict")).toEqual([]);
  }, 60_000);
});
