// redisStorage(): a RunStorage in Redis, over the client you already have — node-redis, ioredis,
// @upstash/redis, or a function that sends one command. Atomic: compareAndSet is one Lua script.
// TTL: Redis expires the key itself (SET … PX).
import { ConfigError } from "../errors";
import type { RunStorage } from "./contract";
import { fromStored, toStored } from "./lossless";
import { defineStorage, kindOf } from "./define";

/** node-redis (`createClient()`), through `sendCommand`. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}
/** ioredis (`new Redis()`), through `call`. */
export interface IoRedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}
/** @upstash/redis (`new Redis({ url, token })`), through `eval`. */
export interface UpstashRedisLike {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}
export type RedisClientLike = NodeRedisLike | IoRedisLike | UpstashRedisLike;

export interface RedisStorageOptions {
  /** The connected client. Or pass `command` instead. */
  client?: RedisClientLike;
  /** Sends one command, e.g. `["EVAL", script, "1", key, …]`, and resolves its reply — for any other client. */
  command?: (args: string[]) => Promise<unknown>;
  /** Prepended to every key. Default `""`. */
  prefix?: string;
}

// Every operation is a script, so one call shape (EVAL) covers every client. Values come back as "=" + value:
// never valid JSON, so a client that JSON-parses replies (Upstash does by default) hands the string back as is.
const GET = "local v = redis.call('GET', KEYS[1]) if v then return '=' .. v end return false";
const DEL = "redis.call('DEL', KEYS[1]) return 1";
// SET and compareAndSet: ARGV[1] is '1' (write only over the value ARGV[2]), '0' (only where the key is
// missing) or '' (always); ARGV[3] is the value, ARGV[4] the TTL in ms ('' for none)
const PUT = `local cur = ARGV[1] ~= '' and redis.call('GET', KEYS[1])
if ARGV[1] == '1' then if cur ~= ARGV[2] then return 0 end elseif ARGV[1] == '0' and cur then return 0 end
if ARGV[4] == '' then redis.call('SET', KEYS[1], ARGV[3]) else redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) end
return 1`;

type Eval = (script: string, key: string, args: string[]) => Promise<unknown>;

function evaluator(options: RedisStorageOptions): Eval | undefined {
  const { client, command } = options;
  if (typeof command === "function") return (script, key, args) => command(["EVAL", script, "1", key, ...args]);
  const c = client as Partial<NodeRedisLike & IoRedisLike & UpstashRedisLike> | undefined;
  // ioredis first: it has a sendCommand too, but one that takes its own Command objects
  if (typeof c?.call === "function") return (script, key, args) => c.call!("EVAL", script, "1", key, ...args);
  if (typeof c?.sendCommand === "function")
    return (script, key, args) => c.sendCommand!(["EVAL", script, "1", key, ...args]);
  if (typeof c?.eval === "function") return (script, key, args) => c.eval!(script, [key], args);
  return undefined;
}

const isOne = (reply: unknown) => reply === 1 || reply === "1";

/* @__NO_SIDE_EFFECTS__ */
export function redisStorage(options: RedisStorageOptions): RunStorage {
  const run = evaluator(options ?? {});
  if (!run)
    throw new ConfigError(
      "client",
      `toolnexus: redisStorage needs { client } (node-redis, ioredis or @upstash/redis) or { command: (args) => … }, got ${kindOf(options?.client)}`,
    );
  const prefix = options.prefix ?? "";
  const name = (key: string) => prefix + toStored(key);
  // the expiry on defineStorage's clock (which reads 0) is the TTL in whole ms
  const px = (ms: number | undefined) => (ms ? String(ms) : "");

  return defineStorage({
    capabilities: { atomic: true, ttl: true },
    async get(key) {
      const reply = await run(GET, name(key), []);
      return typeof reply === "string" && reply.startsWith("=") ? fromStored(reply.slice(1)) : undefined;
    },
    async set(key, value, ms) {
      await run(PUT, name(key), ["", "", toStored(value), px(ms)]);
    },
    async delete(key) {
      await run(DEL, name(key), []);
    },
    async compareAndSet(key, expected, value, ms) {
      const args = [
        expected === undefined ? "0" : "1",
        expected === undefined ? "" : toStored(expected),
        toStored(value),
        px(ms),
      ];
      return isOne(await run(PUT, name(key), args));
    },
  });
}
