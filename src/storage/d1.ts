// d1Storage(): a RunStorage in one table of a Cloudflare D1 database (the binding, e.g. env.DB). Atomic:
// every compareAndSet is one statement on D1's single primary. TTL: an `expires_at` column (ms since the
// epoch) that reads honour and a sweep deletes. D1 holds rows of up to 2 MB, so values up to about that.
import type { RunStorage } from "../types";
import { fromStored, toStored } from "./lossless";
import { checkKey, checkValue, expiryOf, fitKey } from "./shared";
import { quoteTable } from "./sql";

/** The part of a D1 prepared statement this adapter uses (typed here so the core needs no workers-types). */
export interface D1PreparedStatementLike {
  bind(...values: unknown[]): D1PreparedStatementLike;
  first(): Promise<unknown>;
  all(): Promise<{ results?: unknown[] }>;
  run(): Promise<unknown>;
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

export interface D1Storage extends RunStorage {
  /** Deletes every expired row now; resolves how many. (Writes also sweep, once every 256.) */
  sweep(): Promise<number>;
}

const MAX_KEY_BYTES = 1024;
const SWEEP_EVERY = 256;

/* @__NO_SIDE_EFFECTS__ */
export function d1Storage(options: D1StorageOptions): D1Storage {
  const { database } = options;
  if (typeof database?.prepare !== "function") throw new TypeError("toolnexus: d1Storage needs { database } — a D1 binding such as env.DB");
  const now = options.now ?? (() => Date.now());
  const name = options.table ?? "toolnexus_runs";
  const t = quoteTable("d1Storage", name, false);

  let ready: Promise<void> | undefined;
  const setUp = async () => {
    await database.prepare(`create table if not exists ${t} (key text primary key, value text not null, expires_at integer)`).run();
    await database.prepare(`create index if not exists "${name}_expires_at" on ${t} (expires_at)`).run();
  };
  const statement = async (text: string, ...params: unknown[]) => {
    if (options.createTable !== false) await (ready ??= setUp().catch((e) => ((ready = undefined), Promise.reject(e))));
    return database.prepare(text).bind(...params);
  };
  const at = () => Math.floor(now());
  const until = (opts?: { ttlSeconds?: number }) => {
    const expires = expiryOf(opts, now);
    return expires === undefined ? null : Math.ceil(expires);
  };
  const key = (k: string) => fitKey(toStored(k), MAX_KEY_BYTES);

  const sweep = async () => ((await (await statement(`delete from ${t} where expires_at <= ?1 returning 1`, at())).all()).results ?? []).length;
  let writes = 0;
  const wrote = async <T>(result: T): Promise<T> => {
    if (++writes % SWEEP_EVERY === 0) await sweep().catch(() => undefined); // best effort: the write stands
    return result;
  };
  const upsert = `insert into ${t} as t (key, value, expires_at) values (?1, ?2, ?3)
    on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;

  return {
    capabilities: { atomic: true, ttl: true },
    sweep,
    async get(k) {
      checkKey(k);
      const select = `select value from ${t} where key = ?1 and (expires_at is null or expires_at > ?2)`;
      const row = (await (await statement(select, await key(k), at())).first()) as { value: string } | null;
      return row === null ? undefined : fromStored(row.value);
    },
    async set(k, value, opts) {
      checkKey(k);
      checkValue(value);
      const expires = until(opts);
      await wrote(await (await statement(upsert, await key(k), toStored(value), expires)).run());
    },
    async delete(k) {
      checkKey(k);
      await (await statement(`delete from ${t} where key = ?1`, await key(k))).run();
    },
    // one statement each: an insert that only replaces an expired row, or an update guarded by the value
    async compareAndSet(k, expected, value, opts) {
      checkKey(k);
      checkValue(value);
      if (expected !== undefined) checkValue(expected, "expected value");
      const expires = until(opts);
      const guarded =
        expected === undefined
          ? await statement(`${upsert} where t.expires_at is not null and t.expires_at <= ?4 returning 1 as ok`, await key(k), toStored(value), expires, at())
          : await statement(
              `update ${t} set value = ?2, expires_at = ?3 where key = ?1 and value = ?4 and (expires_at is null or expires_at > ?5) returning 1 as ok`,
              await key(k),
              toStored(value),
              expires,
              toStored(expected),
              at(),
            );
      return wrote((await guarded.first()) !== null);
    },
  };
}
