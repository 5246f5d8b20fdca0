// The catalogue of errors the SDK throws on purpose: ToolnexusError, its subclasses (each with a `code`, and
// the fields a caller branches on), the cross-realm marker, and the helpers that word their messages.
import type { Answer, ConflictReason, PendingRequest } from "./types";

export type { ConflictReason };

const BRAND = Symbol.for("toolnexus.error");

export type ToolnexusErrorCode =
  | "answer_mismatch"
  | "invalid_answer"
  | "run_not_found"
  | "run_state"
  | "run_conflict"
  | "storage"
  | "llm_http"
  | "stream"
  | "config"
  | "resume_token"
  | "network"
  // what an edge endpoint answers a request it cannot use, and a failure it does not describe
  | "bad_request"
  | "method_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "too_many_requests"
  | "internal"
  | "output";

export interface ToolnexusErrorOptions {
  cause?: unknown;
}

/** Puts the toolnexus marker on `error`: what {@link isToolnexusError} and `instanceof ToolnexusError` read. */
function mark(error: Error): void {
  Object.defineProperty(error, BRAND, { value: true });
}

/** The `cause` option of Error's constructor, only when there is one. */
const causeOf = (options?: ToolnexusErrorOptions) =>
  options?.cause === undefined ? undefined : { cause: options.cause };

/**
 * The base of every error the SDK throws on purpose. Tool failures are data, not errors.
 *
 * `error instanceof ToolnexusError` answers by the marker, not the prototype chain: it holds for an error
 * from another realm or another copy of the package, and for {@link ConfigError} (a `TypeError`). A
 * subclass's own `instanceof` is the ordinary prototype check.
 */
export class ToolnexusError extends Error {
  declare readonly code: ToolnexusErrorCode;
  constructor(code: ToolnexusErrorCode, message: string, options?: ToolnexusErrorOptions) {
    super(message, causeOf(options));
    this.name = "ToolnexusError";
    this.code = code;
    mark(this);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class on the right of `instanceof`, a subclass included
    if (this === ToolnexusError) return isToolnexusError(value);
    // biome-ignore lint/complexity/noThisInStatic: the ordinary prototype check, for the subclass asked about
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/** True for any {@link ToolnexusError}, even one from another realm or another copy of the package. */
export function isToolnexusError(error: unknown): error is ToolnexusError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** An Answer whose `id` does not echo the Request it answers. Nothing was changed. */
export class AnswerMismatchError extends ToolnexusError {
  declare readonly request: PendingRequest;
  declare readonly answer: Answer;
  constructor(request: PendingRequest, answer: Answer) {
    super(
      "answer_mismatch",
      `toolnexus: answer id "${answer.id}" does not echo the pending request id "${request.id}" — build the answer with answerOutput(request.id, output)`,
    );
    this.name = "AnswerMismatchError";
    this.request = request;
    this.answer = answer;
  }
}

/** A value that is not a valid Answer/Request, or an Answer the run cannot use. Nothing was changed. */
export class InvalidAnswerError extends ToolnexusError {
  /** The path of the offending field, e.g. `"data.results[0].output"`; `""` for the whole value. */
  declare readonly field: string;
  constructor(field: string, message: string, options?: ToolnexusErrorOptions) {
    super("invalid_answer", message, options);
    this.name = "InvalidAnswerError";
    this.field = field;
  }
}

export class RunNotFoundError extends ToolnexusError {
  declare readonly runId: string;
  constructor(runId: string) {
    super(
      "run_not_found",
      `toolnexus: no suspended run "${runId}" in storage — it finished, expired, or was never saved there`,
    );
    this.name = "RunNotFoundError";
    this.runId = runId;
  }
}

/** A stored record that fails validation or has an unknown version. The record is left as it was. */
export class RunStateError extends ToolnexusError {
  declare readonly runId: string | undefined;
  constructor(message: string, runId?: string, options?: ToolnexusErrorOptions) {
    super("run_state", message, options);
    this.name = "RunStateError";
    this.runId = runId;
  }
}

/** The conflict reasons, for checking one that arrived over the network. */
export const CONFLICT_REASONS: readonly ConflictReason[] = [
  "busy",
  "waiting",
  "claimed",
  "answered",
  "finished",
  "changed",
];

/** Another resume holds (or already consumed) this suspension, or a conversation is taken. No tool ran for this call. */
export class RunConflictError extends ToolnexusError {
  declare readonly runId: string;
  /** Which conflict this is; code branches on it, never on the message. */
  declare readonly reason: ConflictReason;
  constructor(runId: string, message: string, reason: ConflictReason = "changed") {
    super("run_conflict", message);
    this.name = "RunConflictError";
    this.runId = runId;
    this.reason = reason;
  }
}

/** A storage read or write failed. `record` carries the serialized run when it could not be saved. */
export class StorageError extends ToolnexusError {
  declare readonly key: string;
  declare readonly operation: "get" | "set" | "delete" | "compareAndSet";
  declare readonly record: string | undefined;
  constructor(operation: StorageError["operation"], key: string, cause: unknown, record?: string) {
    super(
      "storage",
      `toolnexus: storage ${operation} failed for "${key}"${record === undefined ? "" : " — the run is in error.record; save it elsewhere to resume it later"}: ${errorMessage(cause)}`,
      { cause },
    );
    this.name = "StorageError";
    this.key = key;
    this.operation = operation;
    this.record = record;
  }
}

/**
 * `run`, an operation on the storage under `key`: its failure — a rejection, or a throw before it returned
 * a promise (an adapter that is not async) — is a StorageError naming the key (with `record`, the run it
 * could not save).
 */
export async function stored<T>(
  operation: StorageError["operation"],
  key: string,
  run: () => Promise<T>,
  record?: string,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    throw new StorageError(operation, key, cause, record);
  }
}

/** The provider answered with a non-2xx status after retries. `body` is redacted. */
export class LlmHttpError extends ToolnexusError {
  declare readonly status: number;
  declare readonly body: string;
  declare readonly retryAfter: string | undefined;
  constructor(status: number, body: string, retryAfter?: string) {
    super("llm_http", body ? `LLM ${status}: ${capErrorBody(body)}` : `LLM ${status}`);
    this.name = "LlmHttpError";
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/** A provider stream ended early or carried something unreadable. No tool ran on half-received arguments. */
export class StreamError extends ToolnexusError {
  constructor(message: string, options?: ToolnexusErrorOptions) {
    super("stream", message, options);
    this.name = "StreamError";
  }
}

/**
 * A connection failed before any response arrived (refused, reset, DNS, TLS, offline). The original
 * failure is the `cause`; an abort is never one of these — it stays an abort.
 */
export class NetworkError extends ToolnexusError {
  constructor(message: string, options?: ToolnexusErrorOptions) {
    super("network", message, options);
    this.name = "NetworkError";
  }
}

/**
 * A bad option or argument, named in `option`: thrown where it is passed (`createClient`, an adapter's
 * factory, `defineTool`, the answer helpers), never at a later call. The message shows the value it got
 * (cut short, never a secret) and what would be accepted.
 *
 * A bad argument is a `TypeError`, as JavaScript has it: ConfigError extends `TypeError`, carries the
 * toolnexus marker, and `instanceof ToolnexusError` holds for it.
 */
export class ConfigError extends TypeError {
  declare readonly code: "config";
  declare readonly option: string;
  constructor(option: string, message: string, options?: ToolnexusErrorOptions) {
    super(message, causeOf(options));
    this.name = "ConfigError";
    this.code = "config";
    this.option = option;
    mark(this);
  }
}

/** The model's final answer is not JSON of the run's `output` schema. `text` is the answer as it came. */
export class OutputError extends ToolnexusError {
  declare readonly text: string;
  /** What did not fit, as `"<path>: <problem>; …"`, or why it is not JSON. */
  declare readonly problems: string;
  constructor(text: string, problems: string) {
    super(
      "output",
      `toolnexus: the model's final answer does not match the output schema (${capErrorBody(problems)}) — the raw answer is in error.text; retry the run, or loosen the schema`,
    );
    this.name = "OutputError";
    this.text = text;
    this.problems = problems;
  }
}

/** Why a token was refused. */
export type ResumeTokenProblem = "missing" | "malformed" | "signature" | "expired" | "run" | "request" | "replayed";

/** A resume token was missing, forged, tampered with, expired, for another run or request, or replayed. Nothing changed. */
export class ResumeTokenError extends ToolnexusError {
  readonly runId: string;
  readonly problem: ResumeTokenProblem;
  constructor(runId: string, problem: ResumeTokenProblem, message: string) {
    super("resume_token", message);
    this.name = "ResumeTokenError";
    this.runId = runId;
    this.problem = problem;
  }
}

const SHOWN_CHARS = 64;

/**
 * A value as an error message shows it, cut short: a string quoted, a number as written, an array by its
 * length, an object by its first keys. Never pass it a secret (an API key, a header value, a system prompt).
 */
export function shown(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);
  if (typeof value === "function") return "a function";
  if (typeof value !== "object" || value === null) return String(value);
  try {
    if (Array.isArray(value)) return `[${value.length} items]`;
    const keys = Object.keys(value);
    return `{${keys.slice(0, 4).map((k) => ` ${k.slice(0, SHOWN_CHARS)}`)}${keys.length > 4 ? ", …" : ""} }`;
  } catch {
    return "an unreadable object";
  }
}

export const ERROR_BODY_CAP = 200;

export function capErrorBody(body: string): string {
  return body.length > ERROR_BODY_CAP ? `${body.slice(0, ERROR_BODY_CAP)}…` : body;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
