// Deno-only: sqliteStorage over Deno's node:sqlite (an in-memory database, so no file permission is
// needed) — the published contract suite and crash matrix, against the shipped bundle.
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "vitest";
import { sqliteStorage } from "toolnexus";
import { crashMatrix, storageContract } from "toolnexus/testing";

const db = new DatabaseSync(":memory:");

storageContract("sqliteStorage over Deno's node:sqlite", ({ now }) => sqliteStorage({ database: db, now }), {
  describe,
  it,
  ttl: "clock",
});
crashMatrix("sqliteStorage over Deno's node:sqlite", () => sqliteStorage({ database: db, table: "runs_crash" }), {
  describe,
  it,
});
