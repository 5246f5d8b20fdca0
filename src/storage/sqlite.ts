// sqliteStorage(): a RunStorage in one table of an SQLite file, over the database object you opened —
// node:sqlite's DatabaseSync (Node ≥ 22.13, Deno), bun:sqlite's Database, or better-sqlite3's Database
// (Node 20). Every process on the machine that opens the same file shares it, with no server to run.
// Atomic: every compareAndSet is one autocommit statement (never a read-then-write transaction, which
// SQLite's WAL mode refuses with SQLITE_BUSY once another process has written). TTL: an `expires_at`
// column (ms since the epoch) that reads honour and a sweep deletes. The factory sets the connection's
// `busy_timeout` (node:sqlite and bun:sqlite default to 0, so a second process would fail with "database is
// locked" instead of waiting its turn) and switches the file to WAL (kept in the file): in SQLite's default
// rollback journal, two processes writing at once can deadlock, and one of them then fails at once with
// "database is locked" whatever the timeout. The table is created on first use:
//   create table if not exists "toolnexus_runs" (key text primary key, value text not null, expires_at integer);
//   create index if not exists "toolnexus_runs_expires_at" on "toolnexus_runs" (expires_at);
import { ConfigError } from "../errors";
import { quoteTable, sqlStorage, type SweepingStorage } from "./sql";

/** A prepared statement: `all` runs one that returns rows, `run` one that does not (all three bindings have both). */
export interface SqliteStatementLike {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}
/** node:sqlite `DatabaseSync`, bun:sqlite `Database`, better-sqlite3 `Database`: what this adapter uses. */
export interface SqliteDatabaseLike {
  prepare(sql: string): SqliteStatementLike;
  exec(sql: string): unknown;
}

export interface SqliteStorageOptions {
  /** The open database: `new DatabaseSync(file)`, bun's `new Database(file)`, better-sqlite3's `new Database(file)`. */
  database: SqliteDatabaseLike;
  /** The table (a plain identifier). Default `"toolnexus_runs"`. */
  table?: string;
  /** How long a statement waits for another process's write to finish, in ms (`PRAGMA busy_timeout`). Default 5000. */
  busyTimeoutMs?: number;
  /** Switch the file to WAL (`PRAGMA journal_mode = wal`), which writers in several processes need. Default `true`. */
  wal?: boolean;
  /** Create the table (and its expiry index) on first use if it is missing. Default `true`. */
  createTable?: boolean;
  /** The clock TTLs are measured with, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

export type SqliteStorage = SweepingStorage;

/* @__NO_SIDE_EFFECTS__ */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const database = options?.database;
  if (typeof database?.prepare !== "function" || typeof database.exec !== "function") {
    throw new ConfigError(
      "database",
      "toolnexus: sqliteStorage needs { database }: an open node:sqlite DatabaseSync, bun:sqlite or better-sqlite3 Database",
    );
  }
  const busy = options.busyTimeoutMs ?? 5000;
  if (!Number.isInteger(busy) || busy < 0) {
    throw new ConfigError(
      "busyTimeoutMs",
      `toolnexus: sqliteStorage busyTimeoutMs must be a whole number of ms (0 or more), got ${String(busy)}`,
    );
  }
  const name = options.table ?? "toolnexus_runs";
  const table = quoteTable("sqliteStorage", name, false);
  try {
    database.exec(`pragma busy_timeout = ${busy}`);
    if (options.wal !== false) toWal(database, busy);
  } catch (cause) {
    throw new ConfigError(
      "database",
      `toolnexus: sqliteStorage could not set busy_timeout and WAL (${String((cause as Error)?.message ?? cause)}) — pass an open database; wal: false if it is read-only`,
    );
  }
  const statements = new Map<string, SqliteStatementLike>();
  return sqlStorage({
    // `$n` placeholders become plain `?` with the parameters in the order they appear: the one form every
    // binding reads positionally (better-sqlite3 takes `?1` for a named parameter)
    send: async (text, params) => {
      const order: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(params[Number(n) - 1]);
        return "?";
      });
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      // better-sqlite3 refuses all() on a statement that returns no rows
      if (/^select|returning/i.test(sql)) return statement.all(...order);
      statement.run(...order);
      return [];
    },
    table,
    index: `"${name}_expires_at"`,
    expiresType: "integer",
    createTable: options.createTable,
    now: options.now,
  });
}

/**
 * `pragma journal_mode = wal` needs the file to itself, and SQLite answers "database is locked" at once,
 * without waiting out busy_timeout, while another process holds it (opening the same new file, or switching
 * it at the same moment): try again every few ms until `busy` ms have passed. The bindings are synchronous,
 * so the wait is too, as SQLite's own busy wait is.
 */
function toWal(database: SqliteDatabaseLike, busy: number): void {
  const deadline = Date.now() + busy;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      database.exec("pragma journal_mode = wal");
      return;
    } catch (error) {
      if (!/locked|busy/i.test(String((error as Error)?.message)) || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}
