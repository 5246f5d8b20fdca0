// postgresStorage(): a RunStorage in one Postgres table, over the client you already have — anything with
// `query(text, params)` (pg Pool or Client, Neon serverless, PGlite), or postgres.js's `sql` through its
// `unsafe(text, params)`. Atomic: every compareAndSet is one statement. TTL: an `expires_at` column (ms
// since the epoch) that reads honour and a sweep deletes. The table is created on first use:
//   create table if not exists "toolnexus_runs" (key text primary key, value text not null, expires_at bigint);
//   create index if not exists "toolnexus_runs_expires_at" on "toolnexus_runs" (expires_at);
import { ConfigError } from "../errors";
import { kindOf } from "./define";
import { quoteTable, sqlStorage, type SweepingStorage } from "./sql";

/** `pg` (Pool or Client), Neon serverless, PGlite: anything with `query(text, params)`. */
export interface PostgresQueryLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] } | unknown[]>;
}
/** `postgres` (porsager): the `sql` object, through its `unsafe(text, params)`. */
export interface PostgresUnsafeLike {
  unsafe(text: string, params?: unknown[]): PromiseLike<readonly unknown[]>;
}

export interface PostgresStorageOptions {
  client: PostgresQueryLike | PostgresUnsafeLike;
  /** The table, `name` or `schema.name` (plain identifiers). Default `"toolnexus_runs"`. */
  table?: string;
  /** Create the table (and its expiry index) on first use if it is missing. Default `true`. */
  createTable?: boolean;
  /** The clock TTLs are measured with, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

export type PostgresStorage = SweepingStorage;

// duplicate table / object (its row type) / key: a racing process created it first
const RACED = ["42P07", "42710", "23505"];

/* @__NO_SIDE_EFFECTS__ */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const { client } = options;
  const name = options.table ?? "toolnexus_runs";
  const table = quoteTable("postgresStorage", name, true);
  let send: ((text: string, params: unknown[]) => Promise<unknown[]>) | undefined;
  if (typeof (client as PostgresQueryLike)?.query === "function") {
    send = async (text, params) => {
      const result = await (client as PostgresQueryLike).query(text, params);
      return Array.isArray(result) ? result : result.rows;
    };
  } else if (typeof (client as PostgresUnsafeLike)?.unsafe === "function") {
    send = async (text, params) => [...(await (client as PostgresUnsafeLike).unsafe(text, params))];
  } else {
    throw new ConfigError(
      "client",
      `toolnexus: postgresStorage needs { client } — a pg Pool or Client, Neon, PGlite, or a postgres.js sql, got ${kindOf(client)}`,
    );
  }
  return sqlStorage({
    send,
    table,
    index: `"${name.split(".").pop()}_expires_at"`,
    expiresType: "bigint",
    createdMeanwhile: (e) => RACED.includes((e as { code?: string } | null)?.code ?? ""),
    createTable: options.createTable,
    now: options.now,
  });
}
