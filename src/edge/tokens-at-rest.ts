// Resume tokens are credentials: the exchange log keeps none at rest (run-state/exchange-record.ts strips them
// from its `pending` events and a halted run's `done`; the live page got them as they happened), and a replay
// of the log signs fresh ones for the requests still open — so a week of logs in KV holds no token, and a page
// re-attaching gets tokens good for as long as the run is.
import type { Client } from "../client";
import type { RunResult, StreamEvent } from "../types";
import type { Logged } from "./exchange-log";

type Halted = Extract<RunResult, { status: "pending" }> & { token?: string; tokens?: string[] };

/** The logged events of run `runId`, each `pending` (and a halted `done`) with a fresh token of the client's. */
export async function* withFreshTokens(
  client: Client,
  runId: string,
  events: AsyncGenerator<Logged>,
): AsyncGenerator<Logged> {
  let fresh: Record<string, string> | undefined;
  const tokens = async () => (fresh ??= (await client.inspect(runId))?.tokens ?? {});
  for await (const item of events) {
    const { event } = item;
    if (event.type === "pending") {
      const token = (await tokens())[event.request.id];
      yield token === undefined ? item : { ...item, event: { ...event, token } as StreamEvent };
    } else if (event.type === "done" && event.result.status === "pending") {
      const signed = await tokens();
      const result = event.result as Halted;
      const list = (result.requests ?? [result.pending]).map((r) => signed[r.id]);
      const all = list.every((t) => t !== undefined) ? { token: list[0], tokens: list as string[] } : {};
      yield { ...item, event: { ...event, result: { ...result, ...all } } };
    } else yield item;
  }
}
