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
import { earliestIn } from "./deadline-keys";

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
const BATCH = 128; // keys per get/put/delete call
const MAX_KEY_BYTES = 1024; // of the 2 KiB a key may take, leaving room for the prefix and index keys

function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

const damaged = (key: string, what: string) =>
  new ToolnexusError("storage", `toolnexus: Durable Object key "${key}" ${what} — delete it or use another prefix`);

/** One Durable Object storage as the adapter uses it (RunStoreObject makes one with alarms). */
export interface Local {
  storage: DurableObjectStorageLike;
  prefix: string;
  now: () => number;
  /** Set in RunStoreObject: records with a TTL get an index entry and an alarm, so they are deleted unread. */
  alarms: RunStoreStorageLike | undefined;
}

const chunkKey = (l: Local, g: string, i: number) => `${l.prefix}${RESERVED}c:${g}:${i}`;
const indexPrefix = (l: Local) => `${l.prefix}${RESERVED}e:`;
/** Alarm entries at the deadlines the record store's index holds (semantics 8): the alarm fires at the earliest. */
/** How soon an alarm that found a passed deadline comes back, for a run it could not continue then. */
const DEADLINE_RETRY_MS = 60_000;

const deadlinePrefix = (l: Local) => `${l.prefix}${RESERVED}d:`;
const timed = (prefix: string, at: number, key: string) => `${prefix}${String(at).padStart(15, "0")}:${key}`;
const chunksOf = (l: Local, h: Head | undefined) =>
  h?.g === undefined ? [] : Array.from({ length: h.n ?? 0 }, (_, i) => chunkKey(l, h.g!, i));
const remove = async (l: Local, keys: string[]) =>
  void (await Promise.all(batches(keys).map((b) => l.storage.delete(b))));

/** The head alone, for a write that replaces it: something we did not write has no chunks to clean up. */
const peek = async (l: Local, key: string) => readHead(await l.storage.get(key));

/** The live value under `key` (an expired record is deleted and reads as absent). */
async function load(l: Local, key: string): Promise<{ head?: Head; value?: string }> {
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
  if (l.alarms && e !== undefined) entries.push([timed(indexPrefix(l), e, key), key]);
  const due = l.alarms ? earliestIn(key.slice(l.prefix.length), value) : undefined;
  if (due !== undefined) entries.push([timed(deadlinePrefix(l), due, key), key]);
  // issued without an await in between, so the runtime coalesces them into one atomic write
  await Promise.all(batches(entries).map((b) => l.storage.put(Object.fromEntries(b))));
  await remove(l, chunksOf(l, old));
  const wake = Math.min(e ?? Number.POSITIVE_INFINITY, due ?? Number.POSITIVE_INFINITY);
  if (l.alarms && wake !== Number.POSITIVE_INFINITY) {
    const at = await l.alarms.getAlarm();
    if (at === null || at > wake) await l.alarms.setAlarm(wake);
  }
}

/**
 * Deletes every record whose expiry has passed (their index entries say which) and the alarm entries of the
 * deadlines that passed (the subclass's `alarm()` continues those runs), then re-arms the alarm.
 */
export async function sweep(l: Local): Promise<void> {
  const { alarms } = l;
  if (!alarms) return;
  const deadlines = deadlinePrefix(l);
  let passed = false;
  for (;;) {
    const end = `${deadlines}${String(l.now() + 1).padStart(15, "0")}`;
    const due = await alarms.list({ prefix: deadlines, end, limit: BATCH });
    if (due.size === 0) break;
    passed = true;
    await alarms.delete([...due.keys()]);
  }
  const prefix = indexPrefix(l);
  const end = `${prefix}${String(l.now() + 1).padStart(15, "0")}`;
  for (;;) {
    const due = await alarms.list({ prefix, end, limit: BATCH });
    if (due.size === 0) break;
    for (const [index, key] of due) {
      if (typeof key === "string") await load(l, key).catch(() => undefined); // load() deletes an expired record
      await alarms.delete([index]);
    }
  }
  const [next] = (await alarms.list({ prefix, limit: 1 })).keys();
  const [deadline] = (await alarms.list({ prefix: deadlines, limit: 1 })).keys();
  const times = [next?.slice(prefix.length), deadline?.slice(deadlines.length)];
  // a deadline that passed is looked at once more a minute later: a run still halting when the alarm fired,
  // or whose continuation failed, is not left to wait for the next deadline or for its record's expiry
  const retry = passed ? l.now() + DEADLINE_RETRY_MS : Number.POSITIVE_INFINITY;
  const wake = Math.min(retry, ...times.map((t) => (t ? Number(t.slice(0, 15)) : Number.POSITIVE_INFINITY)));
  if (wake !== Number.POSITIVE_INFINITY) await alarms.setAlarm(wake);
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
      alarms: undefined,
    });
  if (namespace) return createRemote(namespace, options.name ?? "toolnexus");
  throw new ConfigError(
    "storage",
    `toolnexus: durableObjectStorage needs { storage } or { namespace } (of RunStoreObject), got ${kindOf(options)}`,
  );
}
