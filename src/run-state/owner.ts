// The owner of a claimed record: from the claim until its run settles, the one writer of that record. It
// checkpoints every turn under a renewed lease, halts the run again or completes it, and gives the last
// checkpoint back when its run goes away unsettled. Every write is a whole record, consistent with itself,
// compare-and-set against what the owner knows is stored. A write that throws may or may not have landed,
// so the next one compares against either; and either, left behind, is a record that the same answer,
// retried, finishes. How long a record lives on adapters with TTLs (pendingTtl) is decided here too.
import { StorageError } from "../errors";
import type { RunResult } from "../types";
import {
  openGroups,
  restamp,
  runKey,
  saveRecord,
  type RunRecord,
  type RunRecordStatus,
  type StoredCall,
} from "./record";
import { swap } from "../storage/swap";
import type { RunStorage } from "../storage/contract";

export interface RecordStoreOptions {
  storage: RunStorage;
  /** How long a claim lasts between its owner's writes, in ms. */
  claimLeaseMs: number;
  /** How long a halted record is kept on adapters with TTLs (counted from its requests' deadline); 0: for ever. */
  pendingTtlSeconds: number;
  /** How long a finished run's outcome is kept for a replayed answer; 0: it is deleted. */
  completedTtlSeconds: number;
  /** The client's clock, in ms since the epoch: leases and TTLs are measured with it. */
  now: () => number;
}

/**
 * How long a record with `calls` is kept on adapters with TTLs: `pendingTtlSeconds`, counted from the last
 * open request's `expiresAt` when it has one (a run is never deleted before its expiry had its chance).
 * Undefined: kept until it is resumed.
 */
export function pendingTtl(o: RecordStoreOptions, calls: readonly StoredCall[]): { ttlSeconds: number } | undefined {
  const ttl = o.pendingTtlSeconds;
  if (ttl <= 0 || !o.storage.capabilities.ttl) return undefined;
  let until = 0;
  for (const { request } of openGroups(calls))
    if (request.expiresAt) until = Math.max(until, Date.parse(request.expiresAt) || 0);
  return { ttlSeconds: ttl + Math.max(0, Math.ceil((until - o.now()) / 1000)) };
}

/** A stored record as read: its text (what a claim compares against) and the record checked. */
export interface Loaded {
  raw: string;
  record: RunRecord;
}

export interface RecordOwner {
  /** The record as this owner last stored it. */
  readonly record: RunRecord;
  /** Saves a turn in progress (its calls marked as started, then with their results); renews the lease. */
  checkpoint(record: RunRecord): Promise<void>;
  /** Writes the run halted again on `record`'s open requests, replayable with this claim's answers; lets go. */
  halt(record: RunRecord): Promise<void>;
  /** Keeps the run's outcome for a replayed answer until `completedTtlSeconds` (or deletes it); lets go. */
  complete(result: RunResult): Promise<void>;
  /** Puts the last checkpoint back unclaimed, unless the run settled. Best effort: it never throws. */
  giveBack(): Promise<void>;
}

/** A record serialized whole, and what its transcript was: a write with the same transcript edits this text. */
interface Base {
  assistant: unknown;
  length: number;
  text: string;
}

const baseOf = (record: RunRecord, text: string): Base => ({
  assistant: record.assistant,
  length: record.messages.length,
  text,
});

/** What an owner holds until its run settles; let go of then, so a finished run's transcript is not kept alive. */
interface Held {
  o: RecordStoreOptions;
  key: string;
  /** The digest of the answers the claim applies. */
  digest: string;
  /** What earlier resumes and this claim applied stays in every write, so replaying them is recognised. */
  answered: RunRecord["answered"];
  applied: RunRecord["applied"];
  /** The record as loaded, and its text as the base the kept outcome is appended to. */
  loaded: RunRecord;
  first: Base;
  /** The last record serialized whole: a write with the same transcript edits its text. */
  base: Base;
  /** The record as this owner last stored it. */
  current: RunRecord;
  /** What may be stored now, newest first: one write, or — after a write that threw — that one and those before. */
  stored: Stored[];
}

/** A write of the owner's: the text and the record it encodes. */
interface Stored {
  text: string;
  record: RunRecord;
}

/** The owner of `found` once it is claimed with `claimed` for the answers `digest` stands for, and the claim's text. */
export function claimRecord(
  o: RecordStoreOptions,
  found: Loaded,
  claimed: RunRecord,
  digest: string,
): { owner: RecordOwner; text: string } {
  const { answered, applied } = claimed;
  // the halt's own text, or — once an earlier owner's writes were appended to it (they carry a lease) — the
  // record afresh, so a run claimed and given back again and again does not grow by a copy of its calls
  const first = baseOf(found.record, found.record.lease === undefined ? found.raw : saveRecord(found.record));
  const key = runKey(claimed.runId);
  let held: Held | undefined = {
    o,
    key,
    digest,
    answered,
    applied,
    loaded: found.record,
    first,
    base: first,
    current: claimed,
    stored: [],
  };
  const text = encode(held, claimed, "claimed");
  held.stored = [{ text, record: claimed }];
  /** The owner's last write: after it (whatever came of it) the owner holds nothing. */
  const settle = async (last: (h: Held) => Promise<void>): Promise<void> => {
    const h = held;
    held = undefined;
    if (h) await last(h);
  };
  const owner: RecordOwner = {
    get record() {
      return held!.current;
    },
    checkpoint: (record) => write(held!, record, encode(held!, record, "claimed")),
    halt: (record) =>
      settle((h) => {
        const more = { applied: [...(applied ?? []), digest] }; // these answers, sent again, get this halt back
        return write(h, record, encode(h, record, "suspended", more)).catch(failed(h));
      }),
    complete: (result) =>
      settle(async (h) => {
        const ttlSeconds = o.completedTtlSeconds;
        if (!o.storage.capabilities.ttl || ttlSeconds <= 0) {
          await o.storage.delete(key).catch(() => {}); // the result is returned either way
          return;
        }
        const done = doneText(h.loaded, h.first.text, { ...h.current, answered, applied }, result);
        await write(h, h.current, done, { ttlSeconds }).catch(failed(h));
      }),
    giveBack: () => settle((h) => giveBackFrom(h, h.stored)),
  };
  return { owner, text };
}

/** `record` with `status` as text: an edit of the base when the transcript is the base's, else serialized whole. */
function encode(h: Held, record: RunRecord, status: RunRecordStatus, more: Partial<RunRecord> = {}): string {
  const lease = { until: h.o.now() + h.o.claimLeaseMs, digest: h.digest };
  const extra = { calls: record.calls, answered: h.answered, applied: h.applied, lease, ...more };
  if (record.assistant === h.base.assistant && record.messages.length === h.base.length) {
    const edited = restamp(h.base.text, record.runId, status, extra);
    if (edited !== undefined) return edited;
  }
  const text = saveRecord({ ...record, ...extra, status });
  h.base = baseOf(record, text);
  return text;
}

/**
 * Writes `value` (encoding `record`) over what may be stored, kept `opts.ttlSeconds` (default: as a pending
 * record is); a write that throws may have landed.
 */
async function write(h: Held, record: RunRecord, value: string, opts = pendingTtl(h.o, record.calls)): Promise<void> {
  const { o, key } = h;
  let wrote = false;
  try {
    // without compareAndSet the adapter is best effort (documented): the owner's writes are plain sets
    if (!o.storage.compareAndSet) {
      await o.storage.set(key, value, opts);
      wrote = true;
    } else {
      for (const { text } of h.stored) {
        wrote = await swap(o.storage, key, text, value, opts);
        if (wrote) break;
      }
    }
  } catch (cause) {
    h.stored = [{ text: value, record }, ...h.stored];
    throw new StorageError("compareAndSet", key, cause, value);
  }
  if (!wrote)
    throw new StorageError(
      "compareAndSet",
      key,
      "the stored run was changed by another resume (its lease had passed)",
      value,
    );
  h.stored = [{ text: value, record }];
  h.current = record;
}

/** `record` encoded as it is given back (see giveBackFrom). */
function givenBack(h: Held, record: RunRecord): string {
  if (!openGroups(record.calls).length) return encode(h, record, "ready");
  if (record.calls.some((c) => c.started && !c.result))
    return encode(h, record, "claimed", { lease: { until: 0, digest: h.digest } });
  return encode(h, record, "suspended");
}

/**
 * Puts back unclaimed the newest of `candidates` that is still stored — the record that write encodes, so
 * a checkpoint that landed and then threw is kept. Best effort: the claim otherwise stays until its lease.
 * Given back, a record is `suspended` while requests are open and no call's outcome is unknown, `ready` once
 * none is open; with both (a partial answer whose tool started), still claimed but with its lease over, so
 * the same answer settles the started call and halts again on the rest at once.
 */
async function giveBackFrom(h: Held, candidates: Stored[]): Promise<void> {
  for (const { text, record } of candidates) {
    const value = givenBack(h, record);
    // unknown: stop here, the lease ends it
    if (await swap(h.o.storage, h.key, text, value, pendingTtl(h.o, record.calls)).catch(() => true)) return;
  }
}

/** A halt or completion that failed: the checkpoint before it is given back, unless the failed write landed. */
const failed = (h: Held) => async (error: unknown) => {
  await giveBackFrom(h, h.stored.slice(1));
  throw error;
};

/**
 * A finished run's record. When the run's messages still start with the loaded transcript, the outcome is
 * appended to the loaded text (that transcript is not serialized again) and lists only the messages after it.
 */
function doneText(loaded: RunRecord, loadedText: string, record: RunRecord, result: RunResult): string {
  const before = loaded.messages;
  if (before.every((m, i) => result.messages[i] === m)) {
    const kept = { ...result, messages: result.messages.slice(before.length) };
    const text = restamp(loadedText, record.runId, "done", { answered: record.answered, result: kept });
    if (text !== undefined) return text;
  }
  const done = { ...record, status: "done" as const, messages: [], assistant: null, calls: [], toolCalls: [], result };
  return saveRecord(done);
}
