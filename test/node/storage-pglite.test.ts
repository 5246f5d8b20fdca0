// postgresStorage over PGlite (Postgres compiled to WebAssembly, in this process): the published contract
// through a third kind of `query(text, params)` client, next to pg and postgres in scripts/test-databases.mjs.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStorage } from "toolnexus";
import { raceSweepers, storageContract } from "toolnexus/testing";

const db = new PGlite();
beforeAll(() => db.waitReady, 120_000); // loading the WebAssembly and initdb: seconds, more on a busy machine
afterAll(() => db.close());

storageContract("postgresStorage over PGlite", ({ now }) => postgresStorage({ client: db, now }), {
  describe,
  it,
  ttl: "clock",
});

describe("postgresStorage over PGlite and deadlines", () => {
  it("two sweepers at once: every due run continued once, by one of them", async () => {
    const make = () => postgresStorage({ client: db, table: "runs_sweep" });
    const outcome = await raceSweepers(make(), { runs: 10, sweepers: 2, make });
    expect(new Set(outcome.continued).size).toBe(10);
    expect([outcome.continued.length, outcome.continuations, outcome.executions]).toEqual([10, 10, 0]);
  });
});
