// The demo Worker's plumbing: where runs are stored, request parsing, the reply the page may send,
// and error responses that tell the page what happened (never a stack, never a secret).
import {
  answerDeclined,
  answerOutput,
  durableObjectStorage,
  InvalidAnswerError,
  isToolnexusError,
  kvStorage,
} from "toolnexus";
import type { Answer, RunStorage } from "toolnexus";

export interface StorageEnv {
  RUNS: KVNamespace;
  /** The `RunStoreObject` Durable Object namespace: atomic claims, so an answer is used exactly once. */
  RUN_STORE?: DurableObjectNamespace;
}

/** Durable Object storage when the binding exists (exactly-once resume), else KV (best effort). */
export function runStorage(env: StorageEnv): RunStorage {
  return env.RUN_STORE
    ? durableObjectStorage({ namespace: env.RUN_STORE })
    : kvStorage({ binding: env.RUNS, prefix: "run:" });
}

export function storageName(env: StorageEnv): string {
  return env.RUN_STORE ? "Durable Object storage" : "Workers KV";
}

/** A request the demo API cannot use; answered with 400 and this message. */
export class BadRequest extends Error {
  override name = "BadRequest";
}

export async function readJson(request: Request): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequest("send a JSON object");
  return body as Record<string, unknown>;
}

const MAX_ANSWER = 2000;

/**
 * Rebuilds the page's (already parseAnswer-validated) reply with the SDK's constructors, so only
 * `{ output }` or a decline reaches the tool — nothing else the browser put in `data`.
 */
export function cleanAnswer(answer: Answer): Answer {
  if (!answer.ok) return answerDeclined(answer.id, answer.reason ?? "declined");
  const output = answer.data?.output;
  if (typeof output !== "string" || !output.trim()) {
    throw new InvalidAnswerError(
      "data.output",
      "toolnexus demo: the reply needs data.output as a non-empty string — build it with answerOutput(request.id, text)",
    );
  }
  if (output.length > MAX_ANSWER)
    throw new InvalidAnswerError("data.output", `toolnexus demo: the reply is longer than ${MAX_ANSWER} characters`);
  return answerOutput(answer.id, output.trim());
}

const STATUS: Record<string, number> = {
  invalid_answer: 400,
  answer_mismatch: 409,
  run_conflict: 409,
  run_not_found: 404,
  run_state: 500,
  llm_http: 502,
  stream: 502,
};

export function errorResponse(error: unknown): Response {
  const json = (status: number, code: string, message: string) =>
    Response.json({ error: { code, message } }, { status });
  if (error instanceof BadRequest) return json(400, "bad_request", `Bad request: ${error.message}`);
  if (isToolnexusError(error)) return json(STATUS[error.code] ?? 500, error.code, error.message);
  console.error("demo: unexpected error:", error instanceof Error ? error.message : String(error));
  return json(500, "internal", "The demo hit an unexpected error — the wrangler log has the details.");
}
