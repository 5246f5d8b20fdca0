// The mark of a tool's throw that ends its run instead of becoming the call's error result. A global symbol,
// so a subpath bundle's own copy of this file marks what the core's loop checks.
const RUN_FAILURE = Symbol.for("toolnexus.run-failure");

/**
 * Marks `error` as its run's own failure: the run ends with it (a resume gives its claim back, so the same
 * answer retries the call). An agent's `task` call whose child's storage failed uses it: a child's answer is
 * never turned into a made-up result.
 */
export function runFailure(error: unknown): Error {
  const e = error instanceof Error ? error : new Error(String(error));
  (e as unknown as Record<symbol, unknown>)[RUN_FAILURE] = true;
  return e;
}

export const isRunFailure = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[RUN_FAILURE] === true;
