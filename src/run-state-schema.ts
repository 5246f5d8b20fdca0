// Reading a stored run record back: parsed, validated with valibot, version-checked. Loaded with resume.
import * as v from "valibot";
import { RunStateError } from "./errors";
import { isPlainObject } from "./json";
import { RUN_STATE_VERSION, type RunRecord } from "./run-state";

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
