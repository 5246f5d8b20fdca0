// postgresStorage over PGlite (Postgres compiled to WebAssembly, in this process): the published contract
// through a third kind of `query(text, params)` client, next to pg and postgres in scripts/test-databases.mjs.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, it } from "vitest";
import { postgresStorage } from "toolnexus";
import { storageContract } from "toolnexus/testing";

const db = new PGlite();
beforeAll(() => db.waitReady, 120_000); // loading the WebAssembly and initdb: seconds, more on a busy machine
afterAll(() => db.close());

storageContract("postgresStorage over PGlite", ({ now }) => postgresStorage({ client: db, now }), {
  describe,
  it,
  ttl: "clock",
});
