// What the tools of one connection share: the MCP client, the server's address and era, the JSON-RPC ids
// already used, and — for session-era servers only — the elicitations the server pushed during open calls.
import type { Client } from "@modelcontextprotocol/client";
import type { ElicitParams, ElicitResponse } from "./elicitation";

/** A pushed `elicitation/create` waiting for its response. */
export interface Push {
  params: ElicitParams;
  respond(response: ElicitResponse): void;
}

/** How an open call ended: its result or what it threw. */
export type Settled = { result: unknown } | { error: unknown };

/** A session-era call still open on the server while its pushed elicitation waits for an answer. */
export interface OpenCall {
  done: Promise<Settled>;
  push: Push;
}

export interface Link {
  name: string;
  client: Client;
  endpoint: string;
  era: "modern" | "legacy";
  timeoutMs: number | undefined;
  /** The configured header values and the URL's query: masked out of every failure message. */
  secrets: readonly string[];
  /** The highest JSON-RPC request id sent so far on this connection (-1 before any). */
  idFloor(): number;
  /** Makes the next request id greater than `floor`, so a retry never repeats an id of the suspended call. */
  raiseIds(floor: number): void;
  /** The next pushed elicitation nobody claimed yet; `cancel()` withdraws the claim. */
  nextPush(): { push: Promise<Push>; cancel(): void };
  /** Pushed elicitations by the id of the Request that shows them. */
  open: Map<string, OpenCall>;
  closed: boolean;
}

/** The push queue: pushes nobody waits for are kept, waiters are served in the order they came. */
export function pushQueue(): { deliver(push: Push): void; next: Link["nextPush"]; drain(): Push[] } {
  const queued: Push[] = [];
  const waiters: ((push: Push) => void)[] = [];
  return {
    deliver(push) {
      const waiter = waiters.shift();
      if (waiter) waiter(push);
      else queued.push(push);
    },
    next() {
      const early = queued.shift();
      if (early) return { push: Promise.resolve(early), cancel() {} };
      let waiter!: (push: Push) => void;
      const push = new Promise<Push>((resolve) => (waiter = resolve));
      waiters.push(waiter);
      return {
        push,
        cancel() {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
        },
      };
    },
    drain: () => queued.splice(0),
  };
}
