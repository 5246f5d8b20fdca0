// A stored run as a result, for what only inspected it (a reloaded page's endpoint): a halted run's first open
// request with its token, or a finished run's end. It holds no transcript, no text and no usage: the run's
// own were shown when it ran.
import { zeroUsage } from "../loop/context";
import type { PendingRequest, RunResult } from "../types";

/** What inspect found of a run that is not running: where it stands, its open requests and their tokens. */
export interface InspectedRun {
  status: "pending" | "done";
  requests: PendingRequest[];
  tokens?: Record<string, string> | undefined;
}

/** The result of inspected run `runId`: pending on its first open request (with that request's token), else done. */
export function inspectionResult(runId: string, { status, requests, tokens }: InspectedRun): RunResult {
  const base = { text: "", messages: [], toolCalls: [], toolCallCount: 0, turns: 0, usage: zeroUsage(), model: "" };
  const [pending] = requests;
  if (status === "done" || !pending) return { ...base, status: "done" };
  return { ...base, status, runId, pending, requests, token: tokens?.[pending.id] };
}
