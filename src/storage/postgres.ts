// postgresStorage(): a RunStorage in one Postgres table, over the client you already have. Atomic: every
// compareAndSet is one statement. TTL: an `expires_at` column (ms since the epoch) that reads honour and a
// sweep deletes.
import type { RunStorage } from "../types";
import { fromStored, toStored } from "./lossless";
import { checkKey, checkValue, expiryOf, fitKey } from "./shared";
import { quoteTable } from "./sql";

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

export interface PostgresStorage extends RunStorage {
  /** Deletes every expired row now; resolves how many. (Writes also sweep, once every 256.) */
  sweep(): Promise<number>;
}

/** Keys longer than this (UTF-8 bytes) are kept as their SHA-256, well under a btree entry's limit. */
const MAX_KEY_BYTES = 1024;
const SWEEP_EVERY = 256;

/* @__NO_SIDE_EFFECTS__ */
export function postgresStorage(options: PostgresStorageOptions): PostgresStorage {
  const { client } = options;
  const now = options.now ?? (() => Date.now());
  const t = quoteTable("postgresStorage", options.table ?? "toolnexus_runs", true);
  const index = `"${(options.table ?? "toolnexus_runs").split(".").pop()}_expires_at"`;
  const send =
    typeof (client as PostgresQueryLike)?.query === "function"
      ? async (text: string, params: unknown[]) => {
          const result = await (client as PostgresQueryLike).query(text, params);
          return Array.isArray(result) ? result : result.rows;
        }
      : typeof (client as PostgresUnsafeLike)?.unsafe === "function"
        ? async (text: string, params: unknown[]) => [...(await (client as PostgresUnsafeLike).unsafe(text, params))]
        : undefined;
  if (!send) throw new TypeError("toolnexus: postgresStorage needs { client } — a pg Pool or Client, Neon, PGlite, or a postgres.js sql");

  let ready: Promise<void> | undefined;
  const created = (e: unknown) => {
    // duplicate table / type / key: a racing process created it first
    if (!["42P07", "42710", "23505"].includes((e as { code?: string } | null)?.code ?? "")) throw e;
  };
  const setUp = async () => {
    await send(`create table if not exists ${t} (key text primary key, value text not null, expires_at bigint)`, []).catch(created);
    await send(`create index if not exists ${index} on ${t} (expires_at)`, []).catch(created);
  };
  const sql = async (text: string, params: unknown[]): Promise<unknown[]> => {
    if (options.createTable !== false) await (ready ??= setUp().catch((e) => ((ready = undefined), Promise.reject(e))));
    return send(text, params);
  };
  const at = () => Math.floor(now());
  const until = (opts?: { ttlSeconds?: number }) => {
    const expires = expiryOf(opts, now);
    return expires === undefined ? null : Math.ceil(expires);
  };
  const key = (k: string) => fitKey(toStored(k), MAX_KEY_BYTES);

  const sweep = async () => (await sql(`delete from ${t} where expires_at <= $1 returning 1`, [at()])).length;
  let writes = 0;
  const wrote = async <T>(result: T): Promise<T> => {
    if (++writes % SWEEP_EVERY === 0) await sweep().catch(() => undefined); // best effort: the write stands
    return result;
  };
  const upsert = `insert into ${t} as t (key, value, expires_at) values ($1, $2, $3)
    on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;

  return {
    capabilities: { atomic: true, ttl: true },
    sweep,
    async get(k) {
      checkKey(k);
      const rows = await sql(`select value from ${t} where key = $1 and (expires_at is null or expires_at > $2)`, [await key(k), at()]);
      const row = rows[0] as { value: string } | undefined;
      return row === undefined ? undefined : fromStored(row.value);
    },
    async set(k, value, opts) {
      checkKey(k);
      checkValue(value);
      const expires = until(opts);
      await wrote(await sql(upsert, [await key(k), toStored(value), expires]));
    },
    async delete(k) {
      checkKey(k);
      await sql(`delete from ${t} where key = $1`, [await key(k)]);
    },
    // one statement each: an insert that only replaces an expired row, or an update guarded by the value
    async compareAndSet(k, expected, value, opts) {
      checkKey(k);
      checkValue(value);
      if (expected !== undefined) checkValue(expected, "expected value");
      const expires = until(opts);
      const rows =
        expected === undefined
          ? await sql(`${upsert} where t.expires_at is not null and t.expires_at <= $4 returning 1`, [await key(k), toStored(value), expires, at()])
          : await sql(
              `update ${t} set value = $2, expires_at = $3 where key = $1 and value = $4 and (expires_at is null or expires_at > $5) returning 1`,
              [await key(k), toStored(value), expires, toStored(expected), at()],
            );
      return wrote(rows.length === 1);
    },
  };
}
