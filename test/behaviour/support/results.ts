// Narrowing a RunResult in a test: the status a test expects, or a failure that says which one came back.
import type { IncompleteResult, PendingResult, RunResult } from "toolnexus";

export function asPending(result: RunResult): PendingResult {
  if (result.status !== "pending") throw new Error(`expected a pending result, got "${result.status}"`);
  return result;
}

export function asIncomplete(result: RunResult): IncompleteResult {
  if (result.status !== "incomplete") throw new Error(`expected an incomplete result, got "${result.status}"`);
  return result;
}
