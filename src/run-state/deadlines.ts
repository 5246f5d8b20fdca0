// The deadline index the record store keeps in the same storage (semantics 8): an entry per halted run
// with a deadline, written before the run's record and removed once the run moved on, so `client.expire()`
// reads the due runs alone — never a scan of the key space. Only get/set/compareAndSet of the RunStorage
// contract: compare-and-set loops where the adapter has it, best effort where it has not. The index is a
// hint: an entry whose run finished, moved on or is gone is dropped by the sweep that reads it.
import { BUCKET_MS, DIRECTORY_KEY, bucketKey, minuteOf, readBucket, readDirectory } from "../storage/deadline-keys";
import type { RunStorage } from "../storage/contract";
import { openGroups, type RunRecord, type StoredCall } from "./record";
import type { RecordOwner } from "./owner";
import { swap } from "../storage/swap";

/** What the index needs of the store's options. */
export interface IndexOptions {
  storage: RunStorage;
  pendingTtlSeconds: number;
  now: () => number;
}

/** One run in the index: its id and the deadline (ms since the epoch) it is due at. */
export interface DueEntry {
  runId: string;
  at: number;
}

const ATTEMPTS = 64;

/** Rewrites `key` with `change` of what is stored until a compare-and-set lands (unchanged: no write). */
async function update(
  storage: RunStorage,
  key: string,
  change: (raw: string | undefined) => string | undefined,
  ttlSeconds?: number,
): Promise<void> {
  const opts = ttlSeconds === undefined ? undefined : { ttlSeconds };
  for (let i = 0; i < ATTEMPTS; i++) {
    const raw = await storage.get(key);
    const next = change(raw);
    if (next === undefined || next === raw) return;
    if (await swap(storage, key, raw, next, opts)) return;
  }
}

/** How long a bucket is kept on adapters with TTLs: as long as the runs in it (their TTL counts from the deadline). */
function bucketTtl(o: IndexOptions, minute: number): number | undefined {
  if (!o.storage.capabilities.ttl || o.pendingTtlSeconds <= 0) return undefined;
  const end = (minute + 1) * BUCKET_MS;
  return Math.max(0, Math.ceil((end - o.now()) / 1000)) + o.pendingTtlSeconds;
}

const withMinute = (minute: number) => (raw: string | undefined) => {
  const minutes = readDirectory(raw);
  if (minutes.includes(minute)) return undefined;
  return JSON.stringify([...minutes, minute].sort((a, b) => a - b));
};

/** Rewrites the bucket of `minute` through `edit`, which changes it in place and says whether it did. */
function editBucket(o: IndexOptions, minute: number, edit: (bucket: Record<string, number>) => boolean) {
  const write = (raw: string | undefined) => {
    const bucket = readBucket(raw);
    return edit(bucket) ? JSON.stringify(bucket) : undefined;
  };
  return update(o.storage, bucketKey(minute), write, bucketTtl(o, minute));
}

/** Adds `runId` due at `at`: its bucket first, then the directory (a sweep that emptied it meanwhile re-adds it). */
export async function indexDeadline(o: IndexOptions, runId: string, at: number): Promise<void> {
  const minute = minuteOf(at);
  await editBucket(o, minute, (bucket) => {
    if (bucket[runId] === at) return false;
    bucket[runId] = at;
    return true;
  });
  await update(o.storage, DIRECTORY_KEY, withMinute(minute));
}

/** Removes `runId`'s entry at `at` (another entry of the run, at another deadline, stays). */
export async function unindexDeadline(o: IndexOptions, runId: string, at: number): Promise<void> {
  await editBucket(o, minuteOf(at), (bucket) => {
    if (bucket[runId] !== at) return false;
    delete bucket[runId];
    return true;
  });
}

/** Takes an empty bucket's minute out of the directory; one that filled meanwhile goes back in. */
async function dropMinute(o: IndexOptions, minute: number): Promise<void> {
  await update(o.storage, DIRECTORY_KEY, (raw) => {
    const minutes = readDirectory(raw);
    return minutes.includes(minute) ? JSON.stringify(minutes.filter((m) => m !== minute)) : undefined;
  });
  const left = readBucket(await o.storage.get(bucketKey(minute)));
  if (Object.keys(left).length > 0) await update(o.storage, DIRECTORY_KEY, withMinute(minute));
}

/**
 * The runs due by now (their deadline passed), earliest first, at most `limit`: the directory, then the buckets of the minutes
 * that began by now — nothing else is read.
 */
export async function dueEntries(o: IndexOptions, limit: number): Promise<DueEntry[]> {
  const now = o.now();
  const due: DueEntry[] = [];
  for (const minute of readDirectory(await o.storage.get(DIRECTORY_KEY))) {
    if (minute * BUCKET_MS > now || due.length >= limit) break;
    const bucket = readBucket(await o.storage.get(bucketKey(minute)));
    const entries = Object.entries(bucket);
    if (entries.length === 0) await dropMinute(o, minute);
    for (const [runId, at] of entries.sort((a, b) => a[1] - b[1])) if (at < now) due.push({ runId, at });
  }
  return due.sort((a, b) => a.at - b.at).slice(0, limit);
}

/** The earliest deadline among the open Requests of a stored turn (undefined: none has one). */
export function earliestDeadline(calls: readonly StoredCall[]): number | undefined {
  let earliest: number | undefined;
  for (const { request } of openGroups(calls)) {
    const at = request.expiresAt === undefined ? Number.NaN : Date.parse(request.expiresAt);
    if (!Number.isNaN(at) && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}

const quietly = (work: Promise<void>): Promise<void> => work.catch(() => {});

/** Indexes a run about to be halted on `record` (before its record is written: an entry never lacks a halt). */
export function indexHalt(o: IndexOptions, record: RunRecord): Promise<void> {
  const at = earliestDeadline(record.calls);
  return at === undefined ? Promise.resolve() : quietly(indexDeadline(o, record.runId, at));
}

/**
 * `owner` keeping the index: a halt again indexes the new deadline (and drops the one it was loaded with),
 * a completion drops it. Best effort: a stale entry is dropped by the sweep that reads it.
 */
export function indexedOwner(o: IndexOptions, loaded: RunRecord, owner: RecordOwner): RecordOwner {
  const before = earliestDeadline(loaded.calls);
  const drop = (at: number | undefined) =>
    before === undefined || before === at ? Promise.resolve() : quietly(unindexDeadline(o, loaded.runId, before));
  return {
    get record() {
      return owner.record;
    },
    checkpoint: (record) => owner.checkpoint(record),
    async halt(record) {
      await indexHalt(o, record);
      await owner.halt(record);
      await drop(earliestDeadline(record.calls));
    },
    async complete(result) {
      await owner.complete(result);
      await drop(undefined);
    },
    giveBack: () => owner.giveBack(),
  };
}
