// d1Storage(): a RunStorage in one table of a Cloudflare D1 database (the binding, e.g. env.DB). Atomic:
// every compareAndSet is one statement on D1's single primary. TTL: an `expires_at` column (ms since the
// epoch) that reads honour and a sweep deletes. D1 holds rows of up to 2 MB, so values up to about that.
// The table is created on first use:
//   create table if not exists "toolnexus_runs" (key text primary key, value text not null, expires_at integer);
//   create index if not exists "toolnexus_runs_expires_at" on "toolnexus_runs" (expires_at);
import { ConfigError } from "../errors";
import { kindOf } from "./define";
import { quoteTable, sqlStorage, type SweepingStorage } from "./sql";

/** The part of a D1 prepared statement this adapter uses (typed here so the core needs no workers-types). */
export interface D1PreparedStatementLike {
  bind(...values: unknown[]): D1PreparedStatementLike;
  all(): Promise<{ results?: unknown[] }>;
}
/** The part of a Workers `D1Database` binding this adapter uses. */
export interface D1DatabaseLike {
  prepare(query: string): D1PreparedStatementLike;
}

export interface D1StorageOptions {
  /** The D1 binding, e.g. `env.DB`. */
  database: D1DatabaseLike;
  /** The table (a plain identifier). Default `"toolnexus_runs"`. */
  table?: string;
  /** Create the table (and its expiry index) on first use if it is missing. Default `true`. */
  createTable?: boolean;
  /** The clock TTLs are measured with, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

export type D1Storage = SweepingStorage;

/* @__NO_SIDE_EFFECTS__ */
export function d1Storage(options: D1StorageOptions): D1Storage {
  const { database } = options;
  if (typeof database?.prepare !== "function")
    throw new ConfigError(
      "database",
      `toolnexus: d1Storage needs { database } — a D1 binding such as env.DB, got ${kindOf(database)}`,
    );
  const name = options.table ?? "toolnexus_runs";
  const table = quoteTable("d1Storage", name, false);
  return sqlStorage({
    // D1 binds by position: `?1`, not `$1` (which SQLite would read as a parameter named "$1")
    send: async (text, params) =>
      (
        await database
          .prepare(text.replace(/\$(\d+)/g, "?$1"))
          .bind(...params)
          .all()
      ).results ?? [],
    table,
    index: `"${name}_expires_at"`,
    expiresType: "integer",
    createTable: options.createTable,
    now: options.now,
  });
}
