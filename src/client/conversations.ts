// Conversations kept in the client's storage: `{ v: 1, messages, pendingRunId?, busy? }` under
// `conversation:<id>`. While a turn is suspended the stored transcript stays as it was before that turn
// (never unbalanced) and names the run it waits on; the resumed run's balanced transcript replaces it.
// Every write is a compare-and-set against what was read, so no exchange is ever lost to a racer: an `ask`
// marks the conversation busy (a lease) before its run starts, and a second `ask` meanwhile is refused.
// The lease is short and renewed while the exchange runs, so one whose process died (a Worker restarted
// mid-stream) holds the conversation only until it passes, not for as long as a run may take.
import { type ConflictReason, RunConflictError, RunStateError, stored } from "../errors";
import { conversationKey, runKey } from "../run-state/record";
import { swap } from "../storage/swap";
import type { RunStorage } from "../storage/contract";

export interface ConversationRecord {
  v: 1;
  messages: unknown[];
  pendingRunId?: string;
  /** Set while an `ask` runs: until when (ms since the epoch) it owns the conversation. */
  busy?: number;
}

interface Loaded {
  record: ConversationRecord;
  raw: string | undefined;
}

/** The longest a conversation stays busy after its exchange stopped renewing it (a process that died). */
const BUSY_MS = 10_000;

/** A client's conversations: its storage, and how long a running exchange's lease lasts between renewals. */
interface Store {
  storage: RunStorage;
  busyMs: number;
  /** The client's clock: the busy lease is measured with it. */
  now: () => number;
}

async function load({ storage }: Store, id: string): Promise<Loaded> {
  const key = conversationKey(id);
  const raw = await stored("get", key, () => storage.get(key));
  if (raw === undefined) return { record: { v: 1, messages: [] }, raw };
  try {
    const record = JSON.parse(raw) as ConversationRecord;
    if (record?.v === 1 && Array.isArray(record.messages)) return { record, raw };
  } catch {}
  throw new RunStateError(`toolnexus: stored conversation "${id}" is corrupt; forget(id) discards it`);
}

/** Writes `record` over `expected`; resolves the text written, or undefined when someone else wrote first. */
async function write(
  { storage }: Store,
  id: string,
  expected: string | undefined,
  record: ConversationRecord,
): Promise<string | undefined> {
  const key = conversationKey(id);
  const raw = JSON.stringify(record);
  const wrote = await stored("compareAndSet", key, () => swap(storage, key, expected, raw), raw);
  return wrote ? raw : undefined;
}

const conflict = (id: string, what: string, reason: ConflictReason, runId = id) =>
  new RunConflictError(runId, `toolnexus: conversation "${id}" ${what}`, reason);

/**
 * Runs one exchange on the conversation — as a stream of events, or drained by `ask` — refused while it
 * waits on a run or another exchange owns it; the outcome is written with a compare-and-set against the
 * conversation as this exchange found it, before the caller can learn the halted run's runId (its first
 * `pending` event, or `done`): a page that answers at once finds the conversation waiting on its run, and
 * the resume that finishes it settles it. A reader that walks away frees the conversation again.
 */
async function* exchange<E, R extends { status: string; messages: unknown[]; runId?: string }>(
  store: Store,
  id: string,
  run: (history: unknown[]) => AsyncGenerator<E, R>,
): AsyncGenerator<E, R> {
  const { record, raw } = await load(store, id);
  if (record.pendingRunId) {
    throw conflict(
      id,
      `waits on run "${record.pendingRunId}": resume it, or forget(id)`,
      "waiting",
      record.pendingRunId,
    );
  }
  if (record.busy !== undefined && record.busy > store.now())
    throw conflict(id, "is busy with another ask; try again later", "busy");
  const { busy: _, ...idle } = record;
  const claimed = await write(store, id, raw, { ...idle, busy: store.now() + store.busyMs });
  if (claimed === undefined) throw conflict(id, "was taken by another ask first; nothing ran", "busy");
  const end = lease(store, id, claimed, idle);
  /** Saves the outcome: the run it waits on, or its transcript. */
  const save = async (result: { status: string; messages: unknown[]; runId?: string }) => {
    const next: ConversationRecord =
      result.status === "pending"
        ? { v: 1, messages: record.messages, pendingRunId: result.runId! }
        : { v: 1, messages: result.messages };
    if (!(await end(next)))
      throw conflict(id, "changed while this ask ran (forgotten?); its exchange was not saved", "changed");
  };
  const events = run(record.messages);
  let finished = false;
  try {
    for (;;) {
      const step = await events.next();
      if (step.done) {
        finished = true;
        await save(step.value);
        return step.value;
      }
      const event = step.value as { type?: unknown; result?: R; runId?: string };
      // the pointer to a halted run is written before anyone can learn its runId: the first `pending`
      // event of a durable halt (it carries the runId), else the `done` event
      if (event.type === "pending" && event.runId !== undefined)
        await save({ status: "pending", messages: [], runId: event.runId });
      else if (event.type === "done" && event.result) await save(event.result);
      yield step.value;
    }
  } finally {
    if (!finished) await events.return(undefined as never);
    await end(idle).catch(() => {}); // frees the conversation unless the outcome was saved; else the lease ends it
  }
}

/**
 * The lease an exchange holds, renewed every third of it while the exchange runs. The function returned ends
 * it once: it stops renewing, waits for a renewal in flight, and writes `next` (the outcome, or the
 * conversation freed) over the text last written; it resolves false when someone else wrote first. A renewal
 * that finds the conversation changed (forgotten) stops, and that write says so.
 */
function lease(store: Store, id: string, claimed: string, idle: ConversationRecord) {
  let last = claimed;
  let inFlight: Promise<unknown> = Promise.resolve();
  let ended = false;
  const timer = setInterval(() => {
    inFlight = inFlight.then(async () => {
      const wrote = await write(store, id, last, { ...idle, busy: store.now() + store.busyMs }).catch(() => undefined);
      if (wrote === undefined) clearInterval(timer);
      else last = wrote;
    });
  }, store.busyMs / 3);
  return async (next: ConversationRecord): Promise<boolean> => {
    if (ended) return true;
    ended = true;
    clearInterval(timer);
    await inFlight;
    return (await write(store, id, last, next)) !== undefined;
  };
}

/** A resumed run finished: its transcript replaces the conversation's — only if the conversation still waits on it. */
async function settle(store: Store, id: string, runId: string, messages: unknown[]): Promise<void> {
  const { record, raw } = await load(store, id);
  if (record.pendingRunId !== runId) return; // a late duplicate, or the conversation moved on: nothing to write
  await write(store, id, raw, { v: 1, messages });
}

async function forget(store: Store, id: string): Promise<void> {
  const found = await load(store, id).catch(() => undefined);
  if (found?.record.pendingRunId) await store.storage.delete(runKey(found.record.pendingRunId));
  await store.storage.delete(conversationKey(id));
}

export function conversationStore(storage: RunStorage, leaseMs: number, now: () => number = Date.now) {
  const store: Store = { storage, busyMs: Math.min(leaseMs, BUSY_MS), now };
  return {
    load: (id: string) => load(store, id),
    exchange: <E, R extends { status: string; messages: unknown[]; runId?: string }>(
      id: string,
      run: (history: unknown[]) => AsyncGenerator<E, R>,
    ) => exchange(store, id, run),
    settle: (id: string, runId: string, messages: unknown[]) => settle(store, id, runId, messages),
    forget: (id: string) => forget(store, id),
  };
}
