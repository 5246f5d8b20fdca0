// A per-adapter operation queue, so an adapter's read-compare-write steps never interleave.

/** Runs the functions it is given one after another, so an adapter's read-compare-write steps never interleave. */
export function createQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
