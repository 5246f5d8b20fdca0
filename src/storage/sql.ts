// What the SQL adapters (postgresStorage, d1Storage) share: the table name check, and the RunStorage over
// one table `(key text primary key, value text not null, expires_at <integer ms since the epoch>)` that
// each drives through its own client. Every compareAndSet is one statement, so it is atomic wherever a
// single statement is: an insert that only replaces an expired row, or an update guarded by the value.
import { ConfigError, shown } from "../errors";
import type { RunStorage } from "./contract";
import { fromStored, toStored } from "./lossless";
import { defineStorage } from "./define";
import { fitKey } from "./keys";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** Keys longer than this (UTF-8 bytes) are kept as their SHA-256, well under a btree entry's limit. */
const MAX_KEY_BYTES = 1024;
const SWEEP_EVERY = 256;

/**
 * `table` (`schema.table` too when `qualified`) double-quoted for SQL, after checking each part is a plain
 * identifier — a name is spliced into statements, so anything else is refused rather than escaped.
 */
export function quoteTable(adapter: string, table: string, qualified: boolean): string {
  const parts = typeof table === "string" ? table.split(".") : [];
  const valid = parts.length >= 1 && parts.length <= (qualified ? 2 : 1) && parts.every((p) => IDENTIFIER.test(p));
  if (!valid) {
    const shape = qualified ? "name or schema.name" : "name";
    throw new ConfigError(
      "table",
      `toolnexus: ${adapter} table must be a ${shape} of letters, digits and _ (at most 63, not starting with a digit), got ${shown(table)}`,
    );
  }
  return parts.map((p) => `"${p}"`).join(".");
}

export interface SqlTable {
  /** Runs one statement (placeholders `$1`, `$2`, …) and resolves its rows. */
  send(text: string, params: unknown[]): Promise<unknown[]>;
  /** The quoted table, from {@link quoteTable}. */
  table: string;
  /** The quoted name of its expiry index. */
  index: string;
  /** The column type of `expires_at`. */
  expiresType: string;
  /** True for an error that means a racing process created the table or index first. */
  createdMeanwhile?: (error: unknown) => boolean;
  createTable?: boolean;
  now?: () => number;
}

export interface SweepingStorage extends RunStorage {
  /** Deletes every expired row now; resolves how many. (Writes also sweep, once every 256.) */
  sweep(): Promise<number>;
}

/** `o.send`, creating the table and its index before the first statement (unless `createTable: false`). */
function withTable(o: SqlTable): SqlTable["send"] {
  let ready: Promise<void> | undefined;
  const tolerate = (e: unknown) => {
    if (!o.createdMeanwhile?.(e)) throw e;
  };
  const setUp = async () => {
    await o
      .send(
        `create table if not exists ${o.table} (key text primary key, value text not null, expires_at ${o.expiresType})`,
        [],
      )
      .catch(tolerate);
    await o.send(`create index if not exists ${o.index} on ${o.table} (expires_at)`, []).catch(tolerate);
  };
  return async (text, params) => {
    if (o.createTable !== false) {
      // a failed set-up is not kept: the next statement tries again
      ready ??= setUp().catch((e) => {
        ready = undefined;
        throw e;
      });
      await ready;
    }
    return o.send(text, params);
  };
}

/** The RunStorage over one SQL table. */
export function sqlStorage(o: SqlTable): SweepingStorage {
  const { table: t } = o;
  const now = o.now ?? (() => Date.now());
  const sql = withTable(o);
  const at = () => Math.floor(now());
  const key = (k: string) => fitKey(toStored(k), MAX_KEY_BYTES);
  const sweep = async () => (await sql(`delete from ${t} where expires_at <= $1 returning 1 as ok`, [at()])).length;
  let writes = 0;
  const wrote = async <T>(result: T): Promise<T> => {
    if (++writes % SWEEP_EVERY === 0) await sweep().catch(() => undefined); // best effort: the write stands
    return result;
  };
  const upsert = `insert into ${t} as t (key, value, expires_at) values ($1, $2, $3)
    on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;
  const swap = `update ${t} set value = $2, expires_at = $3 where key = $1 and value = $4 and (expires_at is null or expires_at > $5) returning 1 as ok`;

  const storage = defineStorage(
    {
      capabilities: { atomic: true, ttl: true },
      async get(k) {
        const rows = await sql(`select value from ${t} where key = $1 and (expires_at is null or expires_at > $2)`, [
          await key(k),
          at(),
        ]);
        const row = rows[0] as { value: string } | undefined;
        return row === undefined ? undefined : fromStored(row.value);
      },
      async set(k, value, expires) {
        await wrote(await sql(upsert, [await key(k), toStored(value), expires ?? null]));
      },
      async delete(k) {
        await sql(`delete from ${t} where key = $1`, [await key(k)]);
      },
      async compareAndSet(k, expected, value, expires) {
        const row = [await key(k), toStored(value), expires ?? null]; // a driver may refuse undefined (D1 does)
        const rows =
          expected === undefined
            ? await sql(`${upsert} where t.expires_at is not null and t.expires_at <= $4 returning 1 as ok`, [
                ...row,
                at(),
              ])
            : await sql(swap, [...row, toStored(expected), at()]);
        return wrote(rows.length === 1);
      },
    },
    now,
  );
  return { ...storage, sweep };
}
