// postgresStorage against a real Postgres (DATABASE_URL, started by scripts/test-databases.mjs) through
// `pg` and `postgres` (porsager), with node:test — the published contract, as a user would run it.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import postgres from "postgres";
import { isToolnexusError, postgresStorage } from "toolnexus";
import { crashMatrix, raceResumes, raceSweepers, storageContract } from "toolnexus/testing";

const url = process.env.DATABASE_URL;
assert.ok(url, "DATABASE_URL is set (run scripts/test-databases.mjs)");
const pool = new pg.Pool({ connectionString: url, max: 20 });
const sql = postgres(url, { max: 20, onnotice: () => {} });
after(() => Promise.all([pool.end(), sql.end()]));

storageContract("postgresStorage over a pg Pool", ({ now }) => postgresStorage({ client: pool, now }), {
  describe,
  it,
  ttl: "clock",
});
storageContract(
  "postgresStorage over postgres (porsager)",
  ({ now }) => postgresStorage({ client: sql, table: "public.runs_porsager", now }),
  {
    describe,
    it,
    ttl: "clock",
  },
);
storageContract(
  "postgresStorage with the real clock",
  () => postgresStorage({ client: pool, table: "runs_real_clock" }),
  { describe, it, ttl: "wait" },
);

const fresh = () => `runs_${crypto.randomUUID().replaceAll("-", "")}`;
const rows = async (table) => (await pool.query(`select key, value, expires_at from ${table} order by key`)).rows;

crashMatrix("postgresStorage over a pg Pool", () => postgresStorage({ client: pool, table: "runs_crash" }), {
  describe,
  it,
});

describe("postgresStorage", () => {
  it("creates the documented table on first use, and keeps plain keys and values readable by other tools", async () => {
    const table = fresh();
    const storage = postgresStorage({ client: pool, table, now: () => 1_000 });
    await storage.set("run:1", '{"v":1}', { ttlSeconds: 60 });
    const columns = await pool.query(
      "select column_name, data_type, is_nullable from information_schema.columns where table_name = $1 order by ordinal_position",
      [table],
    );
    assert.deepEqual(columns.rows, [
      { column_name: "key", data_type: "text", is_nullable: "NO" },
      { column_name: "value", data_type: "text", is_nullable: "NO" },
      { column_name: "expires_at", data_type: "bigint", is_nullable: "YES" },
    ]);
    assert.deepEqual(await rows(table), [{ key: "run:1", value: '{"v":1}', expires_at: "61000" }]);
  });

  it("twenty adapters racing to first use one new table all succeed", async () => {
    const table = fresh();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => postgresStorage({ client: i % 2 ? pool : sql, table }).set(`k${i}`, "v")),
    );
    assert.deepEqual(
      results.filter((r) => r.status === "rejected").map((r) => String(r.reason)),
      [],
    );
    assert.equal((await rows(table)).length, 20);
  });

  it("sweep() deletes the expired rows and keeps the rest", async () => {
    let now = 1_000;
    const table = fresh();
    const storage = postgresStorage({ client: pool, table, now: () => now });
    await storage.set("short", "v", { ttlSeconds: 1 });
    await storage.set("long", "v", { ttlSeconds: 600 });
    await storage.set("forever", "v");
    now += 2_000;
    assert.equal(await storage.sweep(), 1);
    assert.deepEqual(
      (await rows(table)).map((r) => r.key),
      ["forever", "long"],
    );
  });

  it("keeps strings Postgres text cannot hold (NUL, lone surrogates) intact", async () => {
    const storage = postgresStorage({ client: sql, table: fresh() });
    const awkward = ["a\u0000b", "\ud800 lone high", "lone low \udc00", "\u0001starts with the mark", "\u0001"];
    for (const [i, value] of awkward.entries()) await storage.set(`k${i}\u0000`, value);
    for (const [i, value] of awkward.entries()) assert.equal(await storage.get(`k${i}\u0000`), value);
    assert.equal(await storage.compareAndSet("k0\u0000", "a\u0000b", "swapped"), true);
    assert.equal(await storage.get("k0\u0000"), "swapped");
  });

  it("refuses a table name that is not a plain identifier with a typed config error", () => {
    for (const table of ["runs; drop table x", 'a"b', "1runs", "", "a.b.c", "x".repeat(64), 42]) {
      assert.throws(
        () => postgresStorage({ client: pool, table }),
        (e) => isToolnexusError(e) && e.code === "config" && /table must be/.test(e.message),
      );
    }
    assert.throws(() => postgresStorage({ client: {} }), /pg Pool/);
  });

  it("with createTable: false, leaves the schema to you and reports the missing table", async () => {
    const storage = postgresStorage({ client: pool, table: fresh(), createTable: false });
    await assert.rejects(storage.get("k"), /does not exist/);
  });

  it("two sweepers over pg and postgres clients at once: every due run continued once, by one of them", async () => {
    const table = fresh();
    let i = 0;
    const make = () => postgresStorage({ client: i++ % 2 ? pool : sql, table });
    const outcome = await raceSweepers(make(), { runs: 10, sweepers: 2, make });
    assert.equal(new Set(outcome.continued).size, 10);
    assert.deepEqual([outcome.continued.length, outcome.continuations, outcome.executions], [10, 10, 0]);
  });

  it("100 resumes from 100 adapters over pg and postgres clients: the tool runs once", async () => {
    const table = fresh();
    let i = 0;
    const make = () => postgresStorage({ client: i++ % 2 ? pool : sql, table });
    const outcome = await raceResumes(make(), 100, make);
    assert.deepEqual({ executions: outcome.executions, fulfilled: outcome.fulfilled }, { executions: 1, fulfilled: 1 });
    assert.deepEqual(
      outcome.rejected.filter((c) => c !== "run_conflict"),
      [],
    );
    assert.equal(JSON.parse(outcome.stored).status, "done");
  });
});
