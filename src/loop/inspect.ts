// Reading a stored run back for this client: checked against itself and against this client's wire, and
// where it stands for a page that reloaded (client.inspect).
import { RunNotFoundError, RunStateError } from "../errors";
import { corrupt } from "../run-state/check";
import { openGroups, type RunRecord } from "../run-state/record";
import type { Loaded } from "../run-state/store";
import type { PendingRequest } from "../types";
import type { RunContext } from "./context";
import { openRequests } from "./halt";
import { nowOf } from "./deadline";

/** What `client.inspect(runId)` tells a page that reloaded: where the run stands and what it waits for. */
export interface RunInspection {
  /**
   * `pending`: waiting for the answers in `requests`; `running`: a resume owns it now; `ready`: its answers
   * were applied but it stopped before finishing — `resume(runId, [])` continues it; `done`: finished.
   */
  status: "pending" | "running" | "ready" | "done";
  requests: PendingRequest[];
}

async function read(ctx: RunContext, runId: string): Promise<Loaded | undefined> {
  const found = await ctx.records.load(runId);
  const damage = found && damaged(ctx, found.record);
  if (damage) throw corrupt(runId, `is corrupt: ${damage}`);
  return found;
}

/**
 * What the shape cannot say: the stored turn is checked against itself — its calls are exactly the tool
 * calls of the halted assistant message, in order — and every call is finished, waiting or started.
 */
function damaged(ctx: RunContext, record: RunRecord): string | undefined {
  if (record.status === "done") return undefined;
  if (record.style !== ctx.wire.style) return undefined; // refused with its own message by the caller
  const made = ctx.wire.callsOf(record.assistant);
  const stored = record.calls;
  if (made.length !== stored.length || made.some((m, i) => m.id !== stored[i]!.id || m.name !== stored[i]!.name)) {
    return "its calls are not the halted message's tool calls";
  }
  const lost = stored.find((c) => !c.result && !c.started && (!c.request || record.status === "ready"));
  if (lost) return `call "${lost.id}" has neither a result nor an open request`;
  if (record.status === "suspended" && openGroups(stored).length === 0) return "it is suspended with no open request";
  return undefined;
}

export async function mustRead(ctx: RunContext, runId: string): Promise<Loaded> {
  const found = await read(ctx, runId);
  if (!found) throw new RunNotFoundError(runId);
  if (found.record.style !== ctx.wire.style) {
    throw new RunStateError(
      `toolnexus: run "${runId}" was halted by a ${found.record.style}-style client; resume it with one`,
      runId,
    );
  }
  return found;
}

/** Where a stored run stands, for a page that lost its own copy (undefined: no such run). */
export async function inspectRun(ctx: RunContext, runId: string): Promise<RunInspection | undefined> {
  const found = await read(ctx, runId);
  if (!found) return undefined;
  const { record } = found;
  const { status } = record;
  if (status === "suspended") return { status: "pending", requests: openRequests(record.calls) };
  if (status === "done") return { status: "done", requests: [] };
  return { status: status === "claimed" && leaseHeld(record, nowOf(ctx)) ? "running" : "ready", requests: [] };
}

export const leaseHeld = (record: RunRecord, now = Date.now()): boolean =>
  record.lease !== undefined && record.lease.until > now;
