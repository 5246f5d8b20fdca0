// Reading a stored run record back: parsed, shape-checked, version-checked.
import {
  array,
  arrayOf,
  boolean,
  is,
  jsonObject,
  nonEmpty,
  oneOf,
  optional,
  problemIn,
  shape,
  string,
  type Check,
} from "../_internal/check";
import { RunStateError } from "../errors";
import { isPlainObject } from "../_internal/json";
import { RUN_STATE_VERSION, STYLES, type RunRecord } from "./record";

// The record's checks are built the first time a record is read: a bundle that never reads one (a page)
// carries none of them.
let recordCheck: Check | undefined;

/** One stored tool call: its arguments, and the result, Request and answer it may have reached. */
function callShape(json: Check, toolResult: Check): Check {
  const request = shape({
    id: string,
    kind: string,
    prompt: string,
    url: optional(string),
    data: json,
    expiresAt: optional(string),
  });
  return shape({
    id: string,
    name: string,
    args: jsonObject(),
    raw: string,
    result: optional(toolResult),
    request: optional(request),
    started: optional(oneOf([true])),
    answer: optional(shape({ id: string, ok: boolean, data: json })),
  });
}

function recordShape(): Check {
  const json = optional(jsonObject());
  const count = is((n) => Number.isFinite(n) && (n as number) >= 0, "must be a finite number ≥ 0");
  const toolResult = shape({ output: string, isError: boolean, metadata: json });
  const usage = shape({ promptTokens: count, completionTokens: count, totalTokens: count });
  const list = array; // transcript entries are the provider's own shape, not checked here
  // a kept outcome must be a whole RunResult: it is handed back as one
  const outcome = shape(
    {
      status: oneOf(["done", "incomplete"]),
      text: string,
      model: string,
      messages: list,
      toolCalls: list,
      toolCallCount: count,
      turns: count,
      usage,
    },
    "must be a RunResult",
  );
  return shape({
    // `v` is checked before the shape
    runId: nonEmpty,
    status: oneOf(["suspended", "claimed", "ready", "done"]),
    style: oneOf(STYLES),
    model: string,
    system: string,
    conversationId: optional(string),
    updatedAt: string,
    messages: list,
    calls: arrayOf(callShape(json, toolResult)),
    turns: count,
    usage,
    toolCalls: arrayOf(shape({ id: string, name: string, output: string, isError: boolean, metadata: json })),
    text: string,
    answered: optional(shape({ requestId: string, digest: string })),
    applied: optional(arrayOf(string)),
    lease: optional(shape({ until: count, digest: string })),
    result: optional(outcome),
    output: json,
  });
}

/** The RunStateError for the stored run `runId`: `toolnexus: stored run "<runId>" <what>`; the record is left as it is. */
export const corrupt = (runId: string, what: string, cause?: unknown): RunStateError =>
  new RunStateError(`toolnexus: stored run "${runId}" ${what}`, runId, { cause });

/** Parses and checks a stored record. Corrupt JSON, a bad shape or an unknown version ⇒ {@link RunStateError}. */
export function loadRecord(runId: string, raw: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw corrupt(runId, "is not valid JSON", cause);
  }
  if (isPlainObject(value) && value.v !== RUN_STATE_VERSION)
    throw corrupt(runId, `has version ${JSON.stringify(value.v)}; this SDK reads version ${RUN_STATE_VERSION}`);
  recordCheck ??= recordShape();
  const problem = problemIn(recordCheck, value);
  if (problem) throw corrupt(runId, `is corrupt: ${problem.describe()}`);
  const record = value as RunRecord;
  if (record.runId !== runId) throw corrupt(runId, `claims to be run "${record.runId}"`);
  if (record.status === "done" && !record.result) throw corrupt(runId, "is done but has no result");
  return record;
}
