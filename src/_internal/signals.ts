// Abort signals shared by the loop and the fetch-based tools.

/** The longest `setTimeout` waits: a longer delay fires at once (Node warns and waits 1 ms; browsers wait 0). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Aborts when any of `signals` aborts, with its reason (AbortSignal.any where the runtime has it). */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) return AbortSignal.abort(s.reason);
    s.addEventListener("abort", () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * The signal a tool hands on to work it starts (a child run): none when nothing can abort its call — then no
 * never-aborting signal is made for it, and the work waits on no listener.
 */
export function handedSignal(ctx: { signal: AbortSignal }): AbortSignal | undefined {
  // the loop marks a call nothing can abort (execute-tools.ts, `bounded`); a `Symbol.for`: agents may be bundled apart
  return (ctx as unknown as Record<symbol, unknown>)[Symbol.for("toolnexus.unabortable")] ? undefined : ctx.signal;
}

export interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  done(): void;
}

/**
 * A signal that aborts after `ms` (at most {@link MAX_TIMER_MS}: a longer wait, such as a model's webfetch
 * timeout in seconds, waits that long instead of firing at once), or with `outer`. Call `done()` when the work finished.
 */
export function deadline(ms: number, outer: AbortSignal | undefined): Deadline {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new Error(`timed out after ${ms}ms`)), Math.min(ms, MAX_TIMER_MS));
  return {
    signal: outer ? anySignal([outer, timer.signal]) : timer.signal,
    timedOut: () => timer.signal.aborted,
    done: () => clearTimeout(handle),
  };
}

/**
 * `work`, or a rejection with the reason of `signal` as soon as it aborts, whether or not `work` honours it
 * (an injected `fetch` may not); `drop` gets what `work` resolves to after that, to let it go.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, drop?: (late: T) => void): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      work.then(drop, () => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
