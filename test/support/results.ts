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

/** A run done in one turn with the answer `text`, its transcript only the system prompt `system` (a secret to a page). */
export function doneResult(text: string, system: string): RunResult {
  return {
    status: "done",
    text,
    messages: [{ role: "system", content: system }],
    toolCalls: [],
    toolCallCount: 0,
    turns: 1,
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    model: "m",
  } as RunResult;
}
