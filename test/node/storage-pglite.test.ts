// postgresStorage over PGlite (Postgres compiled to WebAssembly, in this process): the published contract
// through a third kind of `query(text, params)` client, next to pg and postgres in scripts/test-databases.mjs.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, it } from "vitest";
import { postgresStorage } from "toolnexus";
import { storageContract } from "toolnexus/testing";

const db = new PGlite();
afterAll(() => db.close());

storageContract("postgresStorage over PGlite", ({ now }) => postgresStorage({ client: db, now }), { describe, it, ttl: "clock" });
