// The family's budget under `agent.run` (outside the runtime): each level of a tree a ledger — its budget,
// carved at spawn (`maxTokens` as min(its own, what the parent has left)), the tokens its settled children
// spent (rolled up into every ancestor's), its own tool calls and when it started, on the client's clock.
// Before each model call the whole chain is walked, as the runtime does: `maxTokens` and `maxWallMs` of
// the level and every ancestor, the level's own `maxToolCalls`. A limit reached ends the level's run
// `incomplete`, `budget exhausted (<limit>); partial work preserved`, its work kept. A ledger lives with the
// process running the tree: a durable resume starts the resumed levels' counts and clocks afresh.
import type { Hooks } from "../loop/options";
import type { RunResult } from "../types";
import type { Budget } from "./types";

export interface Ledger {
  budget: Budget;
  /** Tokens its settled children (and theirs) spent. */
  tokens: number;
  /** Its own tool calls, counted as they end. */
  toolCalls: number;
  /** When it started, on the client's clock. */
  startedAt: number;
  parent: Ledger | undefined;
  /** The limit its run stopped on. */
  stop?: string;
}

/** A level's ledger under `parent`'s: its own budget, `maxTokens` carved from what the parent has left. */
export function ledgerFor(own: Budget | undefined, parent: Ledger | undefined, now: number): Ledger {
  const budget: Budget = { ...own };
  const max = parent?.budget.maxTokens;
  if (max !== undefined) budget.maxTokens = Math.min(budget.maxTokens ?? max, max - parent!.tokens);
  return { budget, tokens: 0, toolCalls: 0, startedAt: now, parent };
}

/** The limit the level or an ancestor has run out of, as of `now` (live: a sibling's spend counts). */
export function exhausted(ledger: Ledger, now: number): string | undefined {
  for (let x: Ledger | undefined = ledger; x; x = x.parent) {
    const { maxTokens, maxWallMs } = x.budget;
    if (maxTokens !== undefined && x.tokens >= maxTokens) return "maxTokens";
    if (maxWallMs !== undefined && now - x.startedAt >= maxWallMs) return "maxWallMs";
  }
  const { maxToolCalls } = ledger.budget;
  if (maxToolCalls !== undefined && ledger.toolCalls >= maxToolCalls) return "maxToolCalls";
  return undefined;
}

/** A settled child's tokens, rolled up into `parent` and every ancestor. */
export function spend(parent: Ledger | undefined, tokens: number): void {
  for (let x = parent; x; x = x.parent) x.tokens += tokens;
}

/** Whether any level of the chain has a limit the hooks check (else the run gets none of this). */
function checked(ledger: Ledger): boolean {
  for (let x: Ledger | undefined = ledger; x; x = x.parent) {
    const { maxTokens, maxWallMs, maxToolCalls } = x.budget;
    if (maxTokens !== undefined || maxWallMs !== undefined || (x === ledger && maxToolCalls !== undefined)) return true;
  }
  return false;
}

/**
 * What a level's run adds to its options for its budget: hooks over its own that walk the chain before each
 * model call and count its tool calls, and a signal that ends the run when a limit is reached; `done` names
 * the limit in the result. Nothing at all when no level of the chain has such a limit.
 */
export function budgeted(
  ledger: Ledger,
  now: () => number,
  own: Hooks | undefined,
  signal: AbortSignal | undefined,
): { hooks?: Hooks; signal?: AbortSignal; done(result: RunResult): RunResult } {
  if (!checked(ledger)) return { done: (result) => result };
  const stop = new AbortController();
  const hooks: Hooks = {
    ...own,
    async beforeLLM(info) {
      const limit = exhausted(ledger, now());
      if (limit) {
        ledger.stop = limit;
        stop.abort(new Error(`budget exhausted (${limit})`));
        throw stop.signal.reason;
      }
      return own?.beforeLLM?.(info);
    },
    async afterTool(info) {
      ledger.toolCalls++;
      return own?.afterTool?.(info);
    },
  };
  const done = (result: RunResult): RunResult =>
    ledger.stop === undefined || result.status !== "incomplete"
      ? result
      : { ...result, text: `budget exhausted (${ledger.stop}); partial work preserved` };
  return { hooks, signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal, done };
}
