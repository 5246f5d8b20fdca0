// A TTL as an absolute expiry, and whether one has passed.
import { ConfigError, shown } from "../errors";
import type { SetOptions } from "./contract";

/**
 * The expiry `opts.ttlSeconds` asks for, in whole ms on the clock `now` (undefined: none). On a clock that
 * reads 0 it is the TTL itself, for stores that take one.
 */
export function expiryOf(opts: SetOptions | undefined, now: () => number): number | undefined {
  const ttl = opts?.ttlSeconds;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)
    throw new ConfigError(
      "ttlSeconds",
      `toolnexus: ttlSeconds must be a number > 0 (omit it for no expiry), got ${shown(ttl)}`,
    );
  return Math.ceil(now() + ttl * 1000);
}

export const isExpired = (expiresAt: number | undefined, now: () => number): boolean =>
  expiresAt !== undefined && expiresAt <= now();
