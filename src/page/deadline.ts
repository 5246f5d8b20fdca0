// A run session's deadline timer (semantics 8): past an open request's `expiresAt` the run goes on by itself
// on the server, so the session restores it once at the earliest deadline of its open requests, and the
// continued run shows without a reload. It runs while someone listens to the session and no exchange streams.
import type { PendingRequest } from "../types";

/** What a run session tells the time by. Default: `Date.now()` and the global timers. */
export interface RunSessionClock {
  /** Now, in ms since the epoch. */
  now(): number;
  /** Calls `fire` once, `ms` from now; returns what `clearTimeout` takes. */
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const SYSTEM_CLOCK: RunSessionClock = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** The longest delay a timer keeps (about 24.8 days). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** When `request` is due, in ms since the epoch; NaN for one without a deadline. */
const dueAt = (request: PendingRequest): number => Date.parse(request.expiresAt ?? "");

/**
 * The timer of one session: `watch(requests)` sets it for the earliest deadline of `requests` still ahead
 * (undefined: nothing to watch now), and `onDue` restores the run when it passes. A deadline already behind
 * the clock is not waited for: the server continued that run at the read that brought it, or (when the
 * page's clock runs ahead of the server's) continues it by itself later — a page is never restored in a loop.
 * A deadline past the longest timer has the run restored at that timer's end, which sets the timer again.
 */
export function deadlineTimer(
  clock: RunSessionClock,
  onDue: () => void,
): (requests: readonly PendingRequest[] | undefined) => void {
  let watched: readonly PendingRequest[] | undefined;
  let timer: unknown;
  return (requests) => {
    if (requests === watched) return;
    watched = requests;
    clock.clearTimeout(timer);
    const now = clock.now();
    const at = Math.min(...(requests ?? []).map(dueAt).filter((t) => t > now));
    if (at !== Number.POSITIVE_INFINITY) timer = clock.setTimeout(onDue, Math.min(at - now, LONGEST_TIMER_MS));
  };
}
