// durableObjectStorage(): an atomic RunStorage on Durable Object storage, in two forms —
//   { storage }          wraps `ctx.storage` inside your own Durable Object;
//   { namespace, name? } works from ANY Worker: it talks over `stub.fetch` to RunStoreObject (shipped in
//                        run-store-object.ts), which runs one operation at a time, so compareAndSet is atomic.
// Records over 32 Ki UTF-16 units are split into chunks under fresh keys (a KV-backed object holds at most
// 128 KiB per value); the head entry that points at them is written last, in the same coalesced write.
import { ConfigError, ToolnexusError } from "../errors";
import type { RunStorage } from "./contract";
import { RESERVED, fitKey } from "./keys";
import { createQueue } from "./queue";
import { defineStorage, kindOf } from "./define";
import { headFor, readHead, type Head } from "./chunks";
import { isExpired } from "./expiry";

/** The part of a Durable Object's `ctx.storage` the `{ storage }` form uses. */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
}

/** What RunStoreObject also needs: listing and alarms, to delete expired records. */
export interface RunStoreStorageLike extends DurableObjectStorageLike {
  list(options: { prefix?: string; end?: string; limit?: number }): Promise<Map<string, unknown>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The part of a Durable Object namespace binding (e.g. `env.RUN_STORE`) the `{ namespace }` form uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): {
    fetch(
      input: string,
      init?: { method?: string; headers?: Record<string, string>; body?: string },
    ): Promise<Response>;
  };
}

export interface DurableObjectStorageOptions {
  /** Inside your own Durable Object: its `ctx.storage`. */
  storage?: DurableObjectStorageLike;
  /** Prepended to every key (`{ storage }` form). Default `""`. */
  prefix?: string;
  /** The clock TTLs are measured with (`{ storage }` form). Default `Date.now`. */
  now?: () => number;
  /** From any Worker: a namespace bound to the `RunStoreObject` class. */
  namespace?: DurableObjectNamespaceLike;
  /** Which RunStoreObject holds a key (`{ namespace }` form): a name, or a function of the key to shard. Default `"toolnexus"`. */
  name?: string | ((key: string) => string);
}

const CHUNK = 32_768; // UTF-16 units: ≤ 64 KiB even when every unit takes two bytes
export const BATCH = 128; // keys per get/put/delete call
const MAX_KEY_BYTES = 1024; // of the 2 KiB a key may take, leaving room for the prefix and index keys

export function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

const damaged = (key: string, what: string) =>
  new ToolnexusError("storage", `toolnexus: Durable Object key "${key}" ${what} — delete it or use another prefix`);

/**
 * RunStoreObject's alarm keeping (alarms.ts): the index entries a write adds to its one coalesced put, and
 * the alarm they arm once it landed.
 */
export interface Alarms {
  readonly storage: RunStoreStorageLike;
  /** The entries for `key` written with `value` (expiring at `e`), and when they want the alarm to fire. */
  entries(key: string, value: string, e: number | undefined): { entries: [string, unknown][]; wake: number };
  /** Brings the alarm forward to `wake` (a time in ms; Infinity: nothing to wake for). */
  arm(wake: number): Promise<void>;
}

/** One Durable Object storage as the adapter uses it (RunStoreObject makes one with alarms). */
export interface Local {
  storage: DurableObjectStorageLike;
  prefix: string;
  now: () => number;
  /** Set in RunStoreObject: records with a TTL or a deadline get an index entry and an alarm. */
  alarms?: Alarms;
}

const chunkKey = (l: Local, g: string, i: number) => `${l.prefix}${RESERVED}c:${g}:${i}`;
const chunksOf = (l: Local, h: Head | undefined) =>
  h?.g === undefined ? [] : Array.from({ length: h.n ?? 0 }, (_, i) => chunkKey(l, h.g!, i));
export const remove = async (l: Local, keys: string[]) =>
  void (await Promise.all(batches(keys).map((b) => l.storage.delete(b))));

/** The head alone, for a write that replaces it: something we did not write has no chunks to clean up. */
const peek = async (l: Local, key: string) => readHead(await l.storage.get(key));

/** The live value under `key` (an expired record is deleted and reads as absent). */
export async function load(l: Local, key: string): Promise<{ head?: Head; value?: string }> {
  const raw = await l.storage.get(key);
  if (raw === undefined) return {};
  const head = readHead(raw);
  if (!head) throw damaged(key, "holds a value durableObjectStorage did not write");
  if (isExpired(head.e, l.now)) {
    await remove(l, [key, ...chunksOf(l, head)]);
    return {};
  }
  if (head.v !== undefined) return { head, value: head.v };
  const parts: string[] = [];
  for (const batch of batches(chunksOf(l, head))) {
    const got = await l.storage.get(batch);
    for (const k of batch) {
      const part = got.get(k);
      if (typeof part !== "string") throw damaged(key, "lost a chunk");
      parts.push(part);
    }
  }
  return { head, value: parts.join("") };
}

async function write(
  l: Local,
  key: string,
  value: string,
  e: number | undefined,
  old: Head | undefined,
): Promise<void> {
  const { head, parts } = headFor(value, CHUNK, e);
  const entries: [string, unknown][] = parts.map((part, i) => [chunkKey(l, head.g!, i), part]);
  entries.push([key, head]); // last: readers only ever follow a head whose chunks exist
  const timers = l.alarms?.entries(key, value, e);
  if (timers) entries.push(...timers.entries);
  // issued without an await in between, so the runtime coalesces them into one atomic write
  await Promise.all(batches(entries).map((b) => l.storage.put(Object.fromEntries(b))));
  await remove(l, chunksOf(l, old));
  if (timers) await l.alarms?.arm(timers.wake);
}

/**
 * One queue per Durable Object storage: every adapter made over the same `storage` (two calls of
 * durableObjectStorage({ storage }) inside one object) serializes its read-compare-write steps through it.
 */
const queues = /* @__PURE__ */ new WeakMap<object, ReturnType<typeof createQueue>>();

export function queueFor(storage: object): ReturnType<typeof createQueue> {
  let queue = queues.get(storage);
  if (!queue) {
    queue = createQueue();
    queues.set(storage, queue);
  }
  return queue;
}

export function createLocal(l: Local): RunStorage {
  const queue = queueFor(l.storage);
  const name = async (key: string) => l.prefix + (await fitKey(key, MAX_KEY_BYTES));
  return defineStorage(
    {
      capabilities: { atomic: true, ttl: true },
      async get(key) {
        const k = await name(key);
        return queue(async () => (await load(l, k)).value);
      },
      async set(key, value, e) {
        const k = await name(key);
        await queue(async () => write(l, k, value, e, await peek(l, k)));
      },
      async delete(key) {
        const k = await name(key);
        await queue(async () => remove(l, [k, ...chunksOf(l, await peek(l, k))]));
      },
      async compareAndSet(key, expected, value, e) {
        const k = await name(key);
        return queue(async () => {
          const current = await load(l, k);
          if (current.value !== expected) return false;
          await write(l, k, value, e, current.head);
          return true;
        });
      },
    },
    l.now,
  );
}

function createRemote(namespace: DurableObjectNamespaceLike, name: string | ((key: string) => string)): RunStorage {
  // a stub belongs to the request that made it, so make one per call instead of caching it
  // `ms`: the expiry on defineStorage's clock, which reads 0 — the TTL in ms
  const call = async (key: string, body: Record<string, unknown>, ms?: number): Promise<Record<string, unknown>> => {
    const stub = namespace.get(namespace.idFromName(typeof name === "function" ? name(key) : name) as never);
    const res = await stub.fetch("https://run-store.toolnexus/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, key, ttlSeconds: ms && ms / 1000 }),
    });
    const text = await res.text();
    if (res.status === 400) throw new ConfigError(String(body.op), text); // the object refused an argument
    if (!res.ok)
      throw new ToolnexusError("storage", `toolnexus: RunStoreObject ${body.op} failed (HTTP ${res.status}): ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  return defineStorage({
    capabilities: { atomic: true, ttl: true },
    async get(key) {
      const { value } = await call(key, { op: "get" });
      return typeof value === "string" ? value : undefined;
    },
    set: async (key, value, ms) => void (await call(key, { op: "set", value }, ms)),
    delete: async (key) => void (await call(key, { op: "delete" })),
    async compareAndSet(key, expected, value, ms) {
      const { wrote } = await call(key, { op: "compareAndSet", expected, value }, ms);
      return wrote === true;
    },
  });
}

/**
 * An atomic RunStorage on Durable Objects — the exactly-once choice on Workers. `{ storage }`: inside your
 * own Durable Object (expired records are deleted when next read). `{ namespace, name? }`: from any Worker,
 * through the `RunStoreObject` class, which also deletes expired records with an alarm.
 */
/* @__NO_SIDE_EFFECTS__ */
export function durableObjectStorage(options: DurableObjectStorageOptions): RunStorage {
  const { storage, namespace } = options ?? {};
  if (storage)
    return createLocal({
      storage,
      prefix: options.prefix ?? "",
      now: options.now ?? (() => Date.now()),
    });
  if (namespace) return createRemote(namespace, options.name ?? "toolnexus");
  throw new ConfigError(
    "storage",
    `toolnexus: durableObjectStorage needs { storage } or { namespace } (of RunStoreObject), got ${kindOf(options)}`,
  );
}
