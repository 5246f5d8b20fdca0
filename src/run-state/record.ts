// The suspended-run record: plain, versioned JSON (`v: 1`), validated on every read.
// It holds no API key, header or function — only what the model saw and what the tools returned.
// Reading one back (parsed and shape-checked) lives in check.ts beside this file.
import { canonical } from "../_internal/json";
import { sha256Hex } from "../_internal/sha256";
import { StorageError } from "../errors";
import type { Answer, JSONSchema, PendingRequest, RunResult, ToolCallRecord, ToolResult, Usage } from "../types";
import type { Style } from "../wire/types";

// Where a run and a conversation live in a RunStorage: one key each, never shared with anything else.
export const runKey = (runId: string): string => `run:${runId}`;
export const conversationKey = (id: string): string => `conversation:${id}`;

export const RUN_STATE_VERSION = 1;

/** Every style a client and a stored run record may name. */
export const STYLES: readonly unknown[] = ["openai", "openai-responses", "anthropic", "gemini"] satisfies Style[];

/** One tool call of the halted turn. */
export interface StoredCall {
  id: string;
  name: string;
  /** Arguments after `beforeTool` rewrote them: the tool re-runs with exactly these. */
  args: Record<string, unknown>;
  raw: string;
  /** Set once the call has its final result. */
  result?: ToolResult;
  /** Set while the call waits for an answer. Calls merged into one relay Request share it. */
  request?: PendingRequest;
  /** What the tool asked to get back when it is re-executed (`pending(request, { state })`); never sent to a page. */
  state?: unknown;
  /**
   * Set when the call's tool started (again) for an answer: until `result` is set, its outcome is unknown —
   * after a crash it is reported as interrupted, never run a second time (unless the tool opts into rerun).
   */
  started?: true;
  /** The answer the started call runs with (a tool with `recovery: "rerun"` gets it again). */
  answer?: Answer;
}

export type RunRecordStatus = "suspended" | "claimed" | "ready" | "done";

export interface RunRecord {
  v: 1;
  runId: string;
  status: RunRecordStatus;
  style: Style;
  model: string;
  system: string;
  conversationId?: string;
  updatedAt: string;
  /** The balanced transcript before the halted turn. */
  messages: unknown[];
  /** The halted assistant message, in the provider's shape. */
  assistant: unknown;
  calls: StoredCall[];
  turns: number;
  usage: Usage;
  toolCalls: ToolCallRecord[];
  text: string;
  /** The answer that was applied last (request id + SHA-256 of its canonical JSON). */
  answered?: { requestId: string; digest: string };
  /** Digests of the answer sets applied while other requests of the turn stayed open (replays are recognised). */
  applied?: string[];
  /** While `status === "claimed"`: the owner's lease (ms since the epoch) and the digest of the answers it applies. */
  lease?: { until: number; digest: string };
  /** The outcome, once `status === "done"`. */
  result?: RunResult;
  /** The telemetry's context of the run that wrote the record (a resume links to it). */
  trace?: Record<string, unknown>;
  /** The JSON Schema of the run's `output`: a resume without one checks the final answer against it. */
  output?: JSONSchema;
}

/**
 * Serializes a record, stamped now. The four head fields come first, always in this order, so a claim
 * can flip `status` with a string edit of the stored text instead of serializing the transcript again.
 */
export function saveRecord(record: RunRecord): string {
  const { v, runId, status, updatedAt: _, ...rest } = record;
  try {
    return JSON.stringify({ v, runId, status, updatedAt: new Date().toISOString(), ...rest });
  } catch (cause) {
    throw new StorageError("set", runKey(runId), cause); // something in the run cannot be stored as JSON
  }
}

const HEAD = /^\{"v":1,"runId":("(?:[^"\\]|\\.)*"),"status":"[a-z]+","updatedAt":"[^"]*"/;

/**
 * The stored text of run `runId` with `status` set, `updatedAt` stamped now and `extra` fields appended —
 * by editing the text, so the transcript in it is not serialized again. Undefined when `raw` does not
 * begin with saveRecord's head (the caller serializes the record instead). The result is a rope: storage
 * that keeps strings (memoryStorage) never copies it; one that encodes it pays one copy — except on
 * Node 20, whose V8 takes about a millisecond to flatten a string of 128 KiB or more (JSON.stringify of
 * the same record takes about half that), a cost newer engines do not have.
 */
export function restamp(
  raw: string,
  runId: string,
  status: RunRecordStatus,
  extra: Record<string, unknown> = {},
): string | undefined {
  const head = HEAD.exec(raw);
  if (!head || head[1] !== JSON.stringify(runId) || !raw.endsWith("}")) return undefined;
  const more = JSON.stringify(extra).slice(1, -1);
  const body = raw.slice(head[0].length, -1) + (more ? `,${more}` : "");
  return `{"v":1,"runId":${head[1]},"status":"${status}","updatedAt":"${new Date().toISOString()}"${body}}`;
}

/** A finished run's outcome as returned again: a kept outcome lists only the messages after the record's own. */
export function keptOutcome(record: RunRecord): RunResult {
  const result = record.result!;
  return record.messages.length ? { ...result, messages: [...record.messages, ...result.messages] } : result;
}

/**
 * The calls still waiting, grouped by Request in tool-call order (relay calls merged into one Request share
 * a group). By default a call waits while it has a Request, no result and has not started on its answer (a stored call); the loop's
 * in-flight outcomes, which always carry a result, pass `isOpen` to count the Request alone.
 */
export function openGroups<T extends { request?: PendingRequest; result?: unknown; started?: true }>(
  calls: readonly T[],
  isOpen: (call: T) => boolean = (call) => call.request !== undefined && !call.result && !call.started,
): { request: PendingRequest; calls: T[] }[] {
  const groups = new Map<string, { request: PendingRequest; calls: T[] }>();
  for (const call of calls) {
    if (!call.request || !isOpen(call)) continue;
    const g = groups.get(call.request.id);
    if (g) g.calls.push(call);
    else groups.set(call.request.id, { request: call.request, calls: [call] });
  }
  return [...groups.values()];
}

/** SHA-256 (hex) of an answer's canonical JSON, so a repeated answer can be recognised without storing it. */
export function answerDigest(answer: unknown): Promise<string> {
  return sha256Hex(canonical(answer));
}
