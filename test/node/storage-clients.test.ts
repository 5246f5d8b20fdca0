// The database adapters take each supported client object as it is (this file type-checks them against
// the real packages' types) and refuse bad options before any connection is made. Against live servers
// they run in scripts/test-databases.mjs.
import { describe, expect, it } from "vitest";
import pg from "pg";
import postgres from "postgres";
import { createClient } from "redis";
import IORedis from "ioredis";
import { Redis as Upstash } from "@upstash/redis";
import { d1Storage, isToolnexusError, postgresStorage, redisStorage } from "toolnexus";

const nowhere = "postgres://nobody@127.0.0.1:9/none"; // never dialled: these clients connect lazily

const configError = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return {
      typed: isToolnexusError(error),
      code: (error as { code?: string }).code,
      message: (error as Error).message,
    };
  }
  return { typed: false, code: undefined, message: "no error" };
};

describe("database adapters over the clients people have", () => {
  it("accept pg, postgres, node-redis, ioredis and @upstash/redis clients as they are, all atomic with TTL", async () => {
    const pool = new pg.Pool({ connectionString: nowhere });
    const sql = postgres(nowhere, { max: 1 });
    const io = new IORedis({ lazyConnect: true });
    const adapters = [
      postgresStorage({ client: pool }),
      postgresStorage({ client: new pg.Client({ connectionString: nowhere }) }),
      postgresStorage({ client: sql }),
      redisStorage({ client: createClient() }),
      redisStorage({ client: io }),
      redisStorage({ client: new Upstash({ url: "http://127.0.0.1:9", token: "t", enableTelemetry: false }) }),
      redisStorage({ command: async () => null }),
    ];
    for (const adapter of adapters) expect(adapter.capabilities).toEqual({ atomic: true, ttl: true });
    await pool.end();
    await sql.end();
    io.disconnect();
  });

  it("refuse a table name that is not a plain identifier with a typed config error naming it", () => {
    const client = { query: async () => ({ rows: [] }) };
    for (const table of ["runs; drop table users", 'we"ird', "9lives", "", "a.b.c", "x".repeat(64)]) {
      expect({ table, ...configError(() => postgresStorage({ client, table })) }).toMatchObject({
        table,
        typed: true,
        code: "config",
        message: expect.stringContaining(JSON.stringify(table)),
      });
    }
    expect(
      configError(() => d1Storage({ database: { prepare: () => ({}) as never }, table: "app.runs" })),
    ).toMatchObject({ typed: true, code: "config" });
    expect(() => postgresStorage({ client, table: "app.runs_2" })).not.toThrow();
  });

  it("say what they need when the client is missing or unknown", () => {
    expect(() => postgresStorage({ client: {} as never })).toThrow("pg Pool");
    expect(() => redisStorage({ client: { get: () => null } as never })).toThrow("command");
    expect(() => d1Storage({ database: undefined as never })).toThrow("env.DB");
  });
});
