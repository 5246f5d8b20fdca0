// kvStorage(): a RunStorage over a Cloudflare Workers KV namespace binding. KV is eventually consistent and
// has no conditional write, so compareAndSet is a best-effort read-then-write: NOT atomic.
import { ConfigError, shown } from "../errors";
import type { RunStorage } from "./contract";
import { defineStorage, kindOf } from "./define";
import { fitKey, utf8Length } from "./keys";

/** The part of a Workers `KVNamespace` binding this adapter uses (typed here so the core needs no workers-types). */
export interface KVNamespaceLike {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface KvStorageOptions {
  /** The KV namespace binding, e.g. `env.RUNS`. */
  binding: KVNamespaceLike;
  /** Prepended to every key. Default `""`. */
  prefix?: string;
}

/** Workers KV refuses keys over 512 bytes and `expirationTtl` under 60 seconds. */
const KV_MAX_KEY_BYTES = 512;
const KV_MIN_TTL_SECONDS = 60;

/**
 * A RunStorage over Workers KV. `capabilities.atomic` is false: two racing claims can both win, and a
 * read in another location can be stale for up to 60 s — use `durableObjectStorage` for exactly-once
 * resumes. TTLs under KV's 60-second minimum are raised to 60 s. Keys KV cannot hold are hashed.
 */
/* @__NO_SIDE_EFFECTS__ */
export function kvStorage(options: KvStorageOptions): RunStorage {
  const { binding } = options;
  const prefix = options.prefix ?? "";
  if (typeof binding?.get !== "function" || typeof binding.put !== "function") {
    throw new ConfigError(
      "binding",
      `toolnexus: kvStorage needs { binding } — a KV namespace binding such as env.RUNS, got ${kindOf(binding)}`,
    );
  }
  const room = KV_MAX_KEY_BYTES - utf8Length(prefix);
  if (room < 80)
    throw new ConfigError(
      "prefix",
      `toolnexus: kvStorage prefix is ${utf8Length(prefix)} bytes (${shown(prefix)}) — keep it under ${KV_MAX_KEY_BYTES - 80}`,
    );
  const name = async (key: string) => prefix + (await fitKey(key, room));

  // the expiry on defineStorage's clock (which reads 0) is the TTL in ms
  const put = async (key: string, value: string, ms: number | undefined): Promise<void> =>
    binding.put(
      await name(key),
      value,
      ms ? { expirationTtl: Math.max(KV_MIN_TTL_SECONDS, Math.ceil(ms / 1000)) } : undefined,
    );
  const get = async (key: string) => (await binding.get(await name(key))) ?? undefined;

  return defineStorage({
    capabilities: { atomic: false, ttl: true },
    get,
    set: put,
    delete: async (key) => binding.delete(await name(key)),
    async compareAndSet(key, expected, value, ms) {
      if ((await get(key)) !== expected) return false;
      await put(key, value, ms);
      return true;
    },
  });
}
