/**
 * Runs `work`, yielding every value it emits as soon as it is emitted, and returns what `work` returns.
 * Bridges a callback producer (a stream reader's `onDelta`) into an async generator.
 */
export async function* pump<T, R>(work: (emit: (value: T) => void) => Promise<R>): AsyncGenerator<T, R> {
  const queue: T[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  const done = work((value) => {
    queue.push(value);
    wake?.();
  }).finally(() => {
    settled = true;
    wake?.();
  });
  done.catch(() => {}); // observed below; avoid an unhandled rejection while we are still yielding
  while (true) {
    while (queue.length) yield queue.shift() as T;
    if (settled) return await done;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}
