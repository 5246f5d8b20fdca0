// RunStoreObject's alarm (the `{ namespace }` form's object; `{ storage }` inside your own object keeps none):
// a record written with a TTL gets an index entry at its expiry, a deadline bucket of the record store's index
// (semantics 8) an entry at its earliest deadline, both in the write's one coalesced put; the alarm is kept at
// the earliest of them. When it fires, the expired records are deleted and the passed deadlines' entries
// dropped (a subclass's `alarm()` then continues those runs with `client.expire`).
import { earliestIn } from "./deadline-keys";
import { BATCH, load, type Alarms, type Local, type RunStoreStorageLike } from "./durable-object";
import { RESERVED } from "./keys";

/** How soon an alarm that found a passed deadline comes back, for a run it could not continue then. */
const DEADLINE_RETRY_MS = 60_000;

const indexPrefix = (l: Pick<Local, "prefix">) => `${l.prefix}${RESERVED}e:`;
const deadlinePrefix = (l: Pick<Local, "prefix">) => `${l.prefix}${RESERVED}d:`;
const timed = (prefix: string, at: number, key: string) => `${prefix}${String(at).padStart(15, "0")}:${key}`;

/** The alarm keeping of a RunStoreObject over `storage`, its keys under `prefix`. */
export function keptAlarms(storage: RunStoreStorageLike, prefix: string): Alarms {
  return {
    storage,
    entries(key, value, e) {
      const entries: [string, unknown][] = [];
      if (e !== undefined) entries.push([timed(indexPrefix({ prefix }), e, key), key]);
      const due = earliestIn(key.slice(prefix.length), value);
      if (due !== undefined) entries.push([timed(deadlinePrefix({ prefix }), due, key), key]);
      return { entries, wake: Math.min(e ?? Number.POSITIVE_INFINITY, due ?? Number.POSITIVE_INFINITY) };
    },
    async arm(wake) {
      if (wake === Number.POSITIVE_INFINITY) return;
      const at = await storage.getAlarm();
      if (at === null || at > wake) await storage.setAlarm(wake);
    },
  };
}

/**
 * Deletes every record whose expiry has passed (their index entries say which) and the alarm entries of the
 * deadlines that passed (the subclass's `alarm()` continues those runs), then re-arms the alarm.
 */
export async function sweep(l: Local): Promise<void> {
  const alarms = l.alarms?.storage;
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
