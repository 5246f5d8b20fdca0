// The durable record's whole life, in one place: a record is loaded, written when a fresh run halts, and
// claimed by a resume — the claim returns its owner (owner.ts), which alone writes the record from then on.
import { RunConflictError, StorageError, stored, type ConflictReason } from "../errors";
import { loadRecord } from "./check";
import { runKey, saveRecord, type RunRecord } from "./record";
import { claimRecord, pendingTtl, type Loaded, type RecordOwner, type RecordStoreOptions } from "./owner";
import { swap } from "../storage/swap";
import { indexedOwner, indexHalt } from "./deadlines";

export type { Loaded, RecordOwner, RecordStoreOptions } from "./owner";

export interface RecordStore {
  readonly options: RecordStoreOptions;
  /** The stored record of `runId` (undefined: none); a corrupt one is a RunStateError. */
  load(runId: string): Promise<Loaded | undefined>;
  /** Writes the record of a fresh run that halted (nothing stored under its runId yet). */
  halt(record: RunRecord): Promise<void>;
  /**
   * Takes the loaded record for one resume with a compare-and-set (exactly once on an atomic adapter),
   * writing `claimed` — the record with its answered calls marked as started — under a lease.
   */
  claim(found: Loaded, claimed: RunRecord, digest: string, lost?: ConflictReason): Promise<RecordOwner>;
}

export function recordStore(options: RecordStoreOptions): RecordStore {
  const { storage } = options;
  return {
    options,
    async load(runId) {
      const key = runKey(runId);
      const raw = await stored("get", key, () => storage.get(key));
      return raw === undefined ? undefined : { raw, record: loadRecord(runId, raw) };
    },
    async halt(record) {
      const value = saveRecord(record);
      const key = runKey(record.runId);
      await indexHalt(options, record);
      await stored("set", key, () => storage.set(key, value, pendingTtl(options, record.calls)), value);
    },
    async claim(found, claimed, digest, lost = "claimed") {
      const key = runKey(claimed.runId);
      const owner = claimRecord(options, found, claimed, digest);
      let won: boolean;
      try {
        won = await swap(storage, key, found.raw, owner.text, pendingTtl(options, claimed.calls));
      } catch (cause) {
        // a claim that landed and then threw is undone (a no-op when it never landed): a refused resume
        // consumes nothing, and the same answer retries at once instead of after the lease
        await swap(storage, key, owner.text, found.raw, pendingTtl(options, found.record.calls)).catch(() => {});
        throw new StorageError("compareAndSet", key, cause);
      }
      if (!won)
        throw new RunConflictError(
          claimed.runId,
          `toolnexus: run "${claimed.runId}" was claimed by another resume first — nothing ran for this call`,
          lost,
        );
      return indexedOwner(options, found.record, owner.owner);
    },
  };
}
