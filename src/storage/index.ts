// toolnexus/storage: where runs and conversations are kept — the storage contract every adapter meets, and
// one adapter per store, each taking the runtime's own object (a KV namespace, a database client), never
// looking a binding up by name. The root re-exports the same names for this release.
export type { RunStorage, SetOptions, StorageCapabilities } from "./contract";
export { memoryStorage } from "./memory";
export type { MemoryStorageOptions } from "./memory";
export { webStorage } from "./web";
export type { WebStorageOptions, WebStorageLike, LockManagerLike } from "./web";
export { kvStorage } from "./kv";
export type { KvStorageOptions, KVNamespaceLike } from "./kv";
export { durableObjectStorage } from "./durable-object";
export { RunStoreObject } from "./run-store-object";
export type {
  DurableObjectStorageOptions,
  DurableObjectStorageLike,
  DurableObjectNamespaceLike,
  RunStoreStorageLike,
} from "./durable-object";
export { denoKvStorage } from "./deno-kv";
export type { DenoKvStorageOptions, DenoKvLike, DenoKvAtomicLike, DenoKvKey, DenoKvKeyPart } from "./deno-kv";
export { postgresStorage } from "./postgres";
export type { PostgresStorageOptions, PostgresStorage, PostgresQueryLike, PostgresUnsafeLike } from "./postgres";
export type { SweepingStorage } from "./sql";
export { redisStorage } from "./redis";
export type { RedisStorageOptions, RedisClientLike, NodeRedisLike, IoRedisLike, UpstashRedisLike } from "./redis";
export { d1Storage } from "./d1";
export type { D1StorageOptions, D1Storage, D1DatabaseLike, D1PreparedStatementLike } from "./d1";
export { sqliteStorage } from "./sqlite";
export type { SqliteStorageOptions, SqliteStorage, SqliteDatabaseLike, SqliteStatementLike } from "./sqlite";
