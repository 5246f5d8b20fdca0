// How many waits one caller keeps open at once in an isolate: a prompt sent with `stopped` waiting for the
// exchange it stopped to let go of the conversation, a restore looking again at a run another resume holds.
// Each holds a request (and a timer) open for seconds; past the bound, the next is refused with 429
// `too_many_requests` at once. A caller is its owner, or for an anonymous one the conversation or run it waits on.
import { ToolnexusError } from "../errors";

/** The waits held now, by caller; `take` claims one and returns its release. */
export interface HeldWaits {
  take(key: string): () => void;
}

export function heldWaits(max: number): HeldWaits {
  const held = new Map<string, number>();
  return {
    take(key) {
      const now = held.get(key) ?? 0;
      if (now >= max)
        throw new ToolnexusError(
          "too_many_requests",
          `toolnexus: ${max} waits of this caller are open already — try again once one of them has ended`,
        );
      held.set(key, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      };
    },
  };
}

/** Whose wait it is: the owner's, else (anonymous) the conversation's or the run's it waits on. */
export const waiter = (owner: string | null, fallback: string): string =>
  owner === null ? `anonymous:${fallback}` : `owner:${owner}`;
