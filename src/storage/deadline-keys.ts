// The format of the deadline index the record store keeps beside the runs (run-state/deadlines.ts), shared
// with RunStoreObject, which arms its alarm from it: a bucket per minute of deadlines, `deadline:<minute>`,
// holding `{ runId: deadline ms }`, and one directory, `deadlines`, listing the minutes that have a bucket.

/** A bucket spans one minute of deadlines. */
export const BUCKET_MS = 60_000;

/** The key of the directory: the sorted minutes that have a bucket. */
export const DIRECTORY_KEY = "deadlines";

const BUCKET_PREFIX = "deadline:";

/** The key of the bucket holding deadlines in minute `minute` (ms / BUCKET_MS, floored). */
export const bucketKey = (minute: number): string => `${BUCKET_PREFIX}${minute}`;

/** The minute a deadline (ms since the epoch) falls in. */
export const minuteOf = (at: number): number => Math.floor(at / BUCKET_MS);

/** A bucket's entries as stored (a damaged or foreign value reads as empty). */
export function readBucket(raw: string | undefined): Record<string, number> {
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const out: Record<string, number> = {};
    for (const [id, at] of Object.entries(parsed)) if (Number.isFinite(at)) out[id] = at as number;
    return out;
  } catch {
    return {};
  }
}

/** The directory's minutes as stored, sorted (a damaged value reads as empty). */
export function readDirectory(raw: string | undefined): number[] {
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((m): m is number => Number.isInteger(m)).sort((a, b) => a - b) : [];
  } catch {
    return [];
  }
}

/** The earliest deadline a bucket's stored text holds (undefined: none, or not a bucket). */
export function earliestIn(key: string, raw: string): number | undefined {
  if (!key.startsWith(BUCKET_PREFIX)) return undefined;
  let earliest: number | undefined;
  for (const at of Object.values(readBucket(raw))) if (earliest === undefined || at < earliest) earliest = at;
  return earliest;
}
