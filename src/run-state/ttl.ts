// How long a stored record lives on adapters with TTLs, from the client's options.
import type { RunStorage } from "../types";
import { openGroups, type StoredCall } from "./record";

export interface RecordStoreOptions {
  storage: RunStorage;
  /** How long a claim lasts between its owner's writes, in ms. */
  claimLeaseMs: number;
  /** How long a halted record is kept on adapters with TTLs (at least until its requests expire); 0: for ever. */
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
