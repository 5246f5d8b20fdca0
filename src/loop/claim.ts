// The claim a resume holds on a stored run: taken with a compare-and-set and a lease, renewed at every
// checkpoint of the resumed run, given back when its owner goes away before the run settles — so the same
// answer retries from the last checkpoint, and no finished call runs again.
import { RunConflictError, StorageError } from "../errors";
import { runKey } from "../run-state/keys";
import { openGroups, restamp, saveRecord, type RunRecord, type RunRecordStatus } from "../run-state/record";
import { swap } from "../run-state/swap";
import type { RunResult, StreamEvent } from "../types";
import type { RunContext } from "./context";
import { haltRecord, ttlOf, writeRecord, writeText } from "./halt";

/** The RunConflictError for run `runId`: `toolnexus: run "<runId>" <what>`. */
export const conflict = (runId: string, what: string) =>
  new RunConflictError(runId, `toolnexus: run "${runId}" ${what}`);

const lease = (ctx: RunContext, digest: string) => ({ until: Date.now() + ctx.opts.claimLeaseMs, digest });

/** Writes `record` with `status` (and, claimed, a fresh lease): as a text edit of `base` when it can. */
function encode(ctx: RunContext, record: RunRecord, status: RunRecordStatus, digest: string, base?: string): string {
  const extra = { calls: record.calls, answered: record.answered, applied: record.applied, lease: lease(ctx, digest) };
  const edited = base === undefined ? undefined : restamp(base, record.runId, status, extra);
  return edited ?? saveRecord({ ...record, ...extra, status });
}

/**
 * Takes the record for this resume: compare-and-set where the adapter has it (atomic ones make this
 * exactly-once). Resolves the text later writes edit: the stored one as the halt wrote it, or — when an
 * earlier owner's edits were appended to it (it has a lease) — the record serialized once afresh, so a run
 * claimed and given back again and again does not grow by a copy of its calls each time.
 */
export async function claim(ctx: RunContext, record: RunRecord, raw: string, digest: string): Promise<string> {
  const key = runKey(record.runId);
  const base = record.lease === undefined ? raw : saveRecord(record);
  const value = encode(ctx, record, "claimed", digest, base);
  const opts = ttlOf(ctx, record);
  let won: boolean;
  try {
    won = await swap(ctx.storage, key, raw, value, opts);
  } catch (cause) {
    throw new StorageError("compareAndSet", key, cause);
  }
  if (!won) throw conflict(record.runId, "was claimed by another resume first — nothing ran for this call");
  ctx.owned = value;
  return base;
}

/**
 * Runs `events` as the owner of the claimed record: every checkpoint renews the lease, and when the owner
 * goes away before the run settles — a stream cancelled, a `break`, a thrown hook, a failed model call —
 * the last checkpoint is given back (`ready`, or `suspended` while requests are open), so the same answer
 * retries from there and no finished call runs again.
 */
export async function* owned(
  ctx: RunContext,
  own: Owner,
  events: AsyncGenerator<StreamEvent, RunResult>,
): AsyncGenerator<StreamEvent, RunResult> {
  let settled = false;
  ctx.released = () => {
    settled = true;
  };
  ctx.carry = { answered: own.current.answered, applied: [...(own.current.applied ?? []), own.digest] };
  ctx.checkpoint = async (s, assistant, calls) => {
    const last = own.current;
    const { answered, applied } = last; // what earlier resumes applied stays recognisable as a replay
    own.current = { ...haltRecord(ctx, s, assistant, calls), answered, ...(applied ? { applied } : {}) };
    // a turn's second checkpoint (its outcomes) changes only the calls: an edit of the first one's text
    if (assistant === last.assistant && s.messages.length === last.messages.length)
      await writeText(ctx, s.runId, encode(ctx, own.current, "claimed", own.digest, own.base), ttlOf(ctx, own.current));
    else own.base = await writeRecord(ctx, { ...own.current, status: "claimed", lease: lease(ctx, own.digest) });
  };
  try {
    const result = yield* events;
    settled = true;
    return result;
  } finally {
    ctx.checkpoint = undefined;
    if (!settled) await giveBack(ctx, own);
    letGo(own);
  }
}

/** Drops the record and text a settled claim held: nothing reads them after, and see endRun (context.ts). */
function letGo(own: Owner): void {
  const held: Partial<Owner> = own;
  held.current = undefined;
  held.base = undefined;
}

/**
 * What the owner of a claimed record last saved, the digest of the answers its claim applies, and the last
 * fully serialized text of the record: later writes edit that text (one copy of the calls appended, so the
 * stored text never grows with each write) instead of serializing the transcript again.
 */
export interface Owner {
  current: RunRecord;
  digest: string;
  base: string;
}

/** Puts the last checkpoint back unclaimed (best effort: a failure here must not hide the original error). */
async function giveBack(ctx: RunContext, own: Owner): Promise<void> {
  const record = own.current;
  const status = openGroups(record.calls).length ? "suspended" : "ready";
  try {
    await writeText(ctx, record.runId, encode(ctx, record, status, own.digest, own.base), ttlOf(ctx, record));
  } catch {
    // the claim stays until its lease passes; then the same answer takes it over
  }
}

/** Writes the stored turn with the answers' results: claimed (lease renewed) or, with requests still open, suspended. */
export async function checkpoint(
  ctx: RunContext,
  own: Owner,
  record: RunRecord,
  status: "claimed" | "suspended",
): Promise<void> {
  const next = status === "suspended" ? { ...record, applied: [...(record.applied ?? []), own.digest] } : record;
  await writeText(ctx, record.runId, encode(ctx, next, status, own.digest, own.base), ttlOf(ctx, next));
  own.current = next;
}
