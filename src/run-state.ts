// The suspended-run record: plain, versioned JSON (`v: 1`), validated on every read.
// It holds no API key, header or function — only what the model saw and what the tools returned.
import * as v from "valibot";
import { RunStateError } from "./errors";
import { isPlainObject } from "./parse";
import type { Request, RunResult, ToolCallRecord, ToolResult, Usage } from "./types";
import type { Style } from "./wire/types";

export const RUN_STATE_VERSION = 1;

/** One tool call of the halted turn. */
export interface HaltedCall {
  id: string;
  name: string;
  /** Arguments after `beforeTool` rewrote them: the tool re-runs with exactly these. */
  args: Record<string, unknown>;
  raw: string;
  /** Set once the call has its final result. */
  result?: ToolResult;
  /** Set while the call waits for an answer. Calls merged into one relay Request share it. */
  request?: Request;
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
  calls: HaltedCall[];
  turns: number;
  usage: Usage;
  toolCalls: ToolCallRecord[];
  text: string;
  /** The answer that was applied last (request id + SHA-256 of its canonical JSON). */
  answered?: { requestId: string; digest: string };
  /** The outcome, once `status === "done"`. */
  result?: RunResult;
}

const json = v.custom<Record<string, unknown>>(isPlainObject, "must be an object");
const str = v.string();
const num = v.pipe(v.number(), v.finite(), v.minValue(0));
const toolResult = v.object({ output: str, isError: v.boolean(), metadata: v.optional(json) });
const request = v.object({ id: str, kind: str, prompt: str, url: v.optional(str), data: v.optional(json), expiresAt: v.optional(str) });
const usage = v.object({ promptTokens: num, completionTokens: num, totalTokens: num });

const RecordSchema = v.object({
  v: v.literal(1),
  runId: v.pipe(str, v.minLength(1)),
  status: v.picklist(["suspended", "claimed", "ready", "done"]),
  style: v.picklist(["openai", "anthropic"]),
  model: str,
  system: str,
  conversationId: v.optional(str),
  updatedAt: str,
  messages: v.array(v.unknown()),
  assistant: v.unknown(),
  calls: v.array(v.object({ id: str, name: str, args: json, raw: str, result: v.optional(toolResult), request: v.optional(request) })),
  turns: num,
  usage,
  toolCalls: v.array(v.object({ id: str, name: str, args: v.unknown(), output: str, isError: v.boolean(), metadata: v.optional(json) })),
  text: str,
  answered: v.optional(v.object({ requestId: str, digest: str })),
  result: v.optional(json),
});

/** Parses and validates a stored record. Corrupt JSON, a bad shape or an unknown version ⇒ {@link RunStateError}. */
export function loadRecord(runId: string, raw: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw new RunStateError(`toolnexus: stored run "${runId}" is not valid JSON — it was left as it is`, runId, { cause });
  }
  if (isPlainObject(value) && value.v !== RUN_STATE_VERSION) {
    throw new RunStateError(`toolnexus: stored run "${runId}" has version ${JSON.stringify(value.v)}; this SDK reads version ${RUN_STATE_VERSION}`, runId);
  }
  const parsed = v.safeParse(RecordSchema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new RunStateError(`toolnexus: stored run "${runId}" is corrupt at "${v.getDotPath(issue) ?? ""}": ${issue.message} — it was left as it is`, runId);
  }
  const record = parsed.output as RunRecord;
  if (record.runId !== runId) throw new RunStateError(`toolnexus: stored run "${runId}" claims to be run "${record.runId}"`, runId);
  if (record.status === "done" && !record.result) throw new RunStateError(`toolnexus: stored run "${runId}" is done but has no result`, runId);
  return record;
}

export function saveRecord(record: RunRecord): string {
  return JSON.stringify({ ...record, updatedAt: new Date().toISOString() });
}

/** The calls still waiting, grouped by Request (relay calls merged into one Request share a group). */
export function openGroups(calls: readonly HaltedCall[]): { request: Request; calls: HaltedCall[] }[] {
  const groups = new Map<string, { request: Request; calls: HaltedCall[] }>();
  for (const call of calls) {
    if (call.result || !call.request) continue;
    const g = groups.get(call.request.id);
    if (g) g.calls.push(call);
    else groups.set(call.request.id, { request: call.request, calls: [call] });
  }
  return [...groups.values()];
}

/** SHA-256 (hex) of an answer's canonical JSON, so a repeated answer can be recognised without storing it. */
export async function answerDigest(answer: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonical(answer));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
