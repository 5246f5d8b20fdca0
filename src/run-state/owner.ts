// The owner of a claimed record: from the claim until its run settles, the one writer of that record. It
// checkpoints every turn under a renewed lease, halts the run again or completes it, and gives the last
// checkpoint back when its run goes away unsettled. Every write is a whole record, consistent with itself,
// compare-and-set against what the owner knows is stored. A write that throws may or may not have landed,
// so the next one compares against either; and either, left behind, is a record that the same answer,
// retried, finishes.
import { StorageError } from "../errors";
import type { RunResult, SetOptions } from "../types";
import { runKey } from "./keys";
import { openGroups, restamp, saveRecord, type RunRecord, type RunRecordStatus } from "./record";
import { swap } from "./swap";
import { pendingTtl, type RecordStoreOptions } from "./ttl";

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
  const owner = new Owner(o, found, claimed, digest);
  return { owner, text: owner.claimText };
}

class Owner implements RecordOwner {
  readonly claimText: string;
  readonly #o: RecordStoreOptions;
  readonly #key: string;
  readonly #digest: string;
  // what earlier resumes and this claim applied stays in every write, so replaying them is recognised
  readonly #answered: RunRecord["answered"];
  readonly #applied: RunRecord["applied"];
  #held: Held | undefined;

  constructor(o: RecordStoreOptions, found: Loaded, claimed: RunRecord, digest: string) {
    this.#o = o;
    this.#key = runKey(claimed.runId);
    this.#digest = digest;
    this.#answered = claimed.answered;
    this.#applied = claimed.applied;
    // the halt's own text, or — once an earlier owner's writes were appended to it (they carry a lease) — the
    // record afresh, so a run claimed and given back again and again does not grow by a copy of its calls
    const first = baseOf(found.record, found.record.lease === undefined ? found.raw : saveRecord(found.record));
    const held: Held = { loaded: found.record, first, base: first, current: claimed, stored: [] };
    this.claimText = this.#encode(held, claimed, "claimed");
    held.stored = [{ text: this.claimText, record: claimed }];
    this.#held = held;
  }

  get record(): RunRecord {
    return this.#held!.current;
  }

  checkpoint(record: RunRecord): Promise<void> {
    const h = this.#held!;
    return this.#write(h, record, this.#encode(h, record, "claimed"), pendingTtl(this.#o, record.calls));
  }

  halt(record: RunRecord): Promise<void> {
    return this.#settle((h) => {
      const more = { applied: [...(this.#applied ?? []), this.#digest] }; // these answers, sent again, get this halt back
      const value = this.#encode(h, record, "suspended", more);
      return this.#write(h, record, value, pendingTtl(this.#o, record.calls)).catch(this.#failed(h));
    });
  }

  complete(result: RunResult): Promise<void> {
    return this.#settle(async (h) => {
      const { storage, completedTtlSeconds: ttl } = this.#o;
      if (!storage.capabilities.ttl || ttl <= 0) {
        await storage.delete(this.#key).catch(() => {}); // the result is returned either way
        return;
      }
      const record = { ...h.current, answered: this.#answered, applied: this.#applied };
      const done = doneText(h.loaded, h.first.text, record, result);
      await this.#write(h, h.current, done, { ttlSeconds: ttl }).catch(this.#failed(h));
    });
  }

  giveBack(): Promise<void> {
    return this.#settle((h) => this.#giveBackFrom(h, h.stored));
  }

  /** `record` with `status` as text: an edit of the base when the transcript is the base's, else serialized whole. */
  #encode(h: Held, record: RunRecord, status: RunRecordStatus, more: Partial<RunRecord> = {}): string {
    const lease = { until: Date.now() + this.#o.claimLeaseMs, digest: this.#digest };
    const extra = { calls: record.calls, answered: this.#answered, applied: this.#applied, lease, ...more };
    if (record.assistant === h.base.assistant && record.messages.length === h.base.length) {
      const edited = restamp(h.base.text, record.runId, status, extra);
      if (edited !== undefined) return edited;
    }
    const text = saveRecord({ ...record, ...extra, status });
    h.base = baseOf(record, text);
    return text;
  }

  /** Writes `value` (encoding `record`) over what may be stored; a write that throws may have landed. */
  async #write(h: Held, record: RunRecord, value: string, opts: SetOptions | undefined): Promise<void> {
    const { storage } = this.#o;
    const key = this.#key;
    let wrote = false;
    try {
      // without compareAndSet the adapter is best effort (documented): the owner's writes are plain sets
      if (!storage.compareAndSet) {
        await storage.set(key, value, opts);
        wrote = true;
      } else for (const { text } of h.stored) if ((wrote = await swap(storage, key, text, value, opts))) break;
    } catch (cause) {
      h.stored = [{ text: value, record }, ...h.stored];
      throw new StorageError("compareAndSet", key, cause, value);
    }
    if (!wrote) {
      const why =
        "the stored run was changed by someone else during this resume (its lease passed and it was taken over)";
      throw new StorageError("compareAndSet", key, why, value);
    }
    h.stored = [{ text: value, record }];
    h.current = record;
  }

  /**
   * Puts back unclaimed the newest of `candidates` that is still stored — the record that write encodes, so
   * a checkpoint that landed and then threw is kept. Best effort: the claim otherwise stays until its lease.
   */
  async #giveBackFrom(h: Held, candidates: Stored[]): Promise<void> {
    for (const { text, record } of candidates) {
      const value = this.#givenBack(h, record);
      const back = await swap(this.#o.storage, this.#key, text, value, pendingTtl(this.#o, record.calls)).catch(
        () => true, // unknown: stop here, the lease ends it
      );
      if (back) return;
    }
  }

  /**
   * A record given back: `suspended` while requests are open and no call's outcome is unknown, `ready` once
   * none is open; with both (a partial answer whose tool started), still claimed but with its lease over, so
   * the same answer settles the started call and halts again on the rest at once.
   */
  #givenBack(h: Held, record: RunRecord): string {
    if (openGroups(record.calls).length === 0) return this.#encode(h, record, "ready");
    if (!record.calls.some((c) => c.started && !c.result)) return this.#encode(h, record, "suspended");
    return this.#encode(h, record, "claimed", { lease: { until: 0, digest: this.#digest } });
  }

  /** A halt or completion that failed: the checkpoint before it is given back, unless the failed write landed. */
  #failed(h: Held): (error: unknown) => Promise<never> {
    return async (error) => {
      await this.#giveBackFrom(h, h.stored.slice(1));
      throw error;
    };
  }

  /** The owner's last write: after it (whatever came of it) the owner holds nothing. */
  async #settle(last: (h: Held) => Promise<void>): Promise<void> {
    const h = this.#held;
    this.#held = undefined;
    if (h) await last(h);
  }
}

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
