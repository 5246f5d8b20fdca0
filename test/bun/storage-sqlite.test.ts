// Bun-only: sqliteStorage over bun:sqlite (whose busy_timeout is 0 until the adapter sets it) on a WAL
// file — the published contract suite and crash matrix, against the shipped bundle.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStorage } from "toolnexus";
import { crashMatrix, storageContract } from "toolnexus/testing";

const dir = mkdtempSync(join(tmpdir(), "toolnexus-bun-sqlite-"));
const db = new Database(join(dir, "runs.db"));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

storageContract("sqliteStorage over bun:sqlite", ({ now }) => sqliteStorage({ database: db, now }), {
  describe,
  it,
  ttl: "clock",
});
crashMatrix("sqliteStorage over bun:sqlite", () => sqliteStorage({ database: db, table: "runs_crash" }), {
  describe,
  it,
});

describe("sqliteStorage over bun:sqlite", () => {
  it("sets busy_timeout to 5 s and the file to WAL", () => {
    sqliteStorage({ database: db });
    expect(db.query("pragma busy_timeout").get()).toEqual({ timeout: 5000 });
    expect(db.query("pragma journal_mode").get()).toEqual({ journal_mode: "wal" });
  });
});
