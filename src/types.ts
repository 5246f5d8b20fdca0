// The data that crosses layers: Requests and Answers, tool results, run results, stream events, usage and
// content parts. Each folder's own contract lives in that folder (storage/contract.ts, tools/types.ts,
// loop/options.ts, loop/telemetry.ts, client/types.ts).
/** A JSON Schema object describing a tool's arguments. */
export interface JSONSchema {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

/** The provider API a client speaks (see the providers guide for each one's URL and key variable). */
export type Style = "openai" | "openai-responses" | "anthropic" | "gemini";

/** The fields every Request has. Keys are wire keys, fixed across every toolnexus port. */
export interface RequestBase {
  id: string;
  prompt: string;
  url?: string;
  /** RFC 3339 timestamp after which an `ok` answer counts as expired. */
  expiresAt?: string;
}

/** A typed answer wanted: free text, or a form when `data.schema` is given (an MCP elicitation's `requestedSchema`). */
export interface InputRequest extends RequestBase {
  kind: "input";
  data?: { schema?: JSONSchema; [key: string]: unknown };
}

/** One question of the builtin `question` tool. */
export interface QuestionItem {
  question: string;
  header?: string;
  options?: string[];
  multiple?: boolean;
}

/**
 * A choice: the builtin `question` tool sends `data.questions`; a tool of its own may send `options` (and
 * `multiple`) at the top of `data` instead.
 */
export interface QuestionRequest extends RequestBase {
  kind: "question";
  data?: { questions?: QuestionItem[]; options?: string[]; multiple?: boolean; [key: string]: unknown };
}

/**
 * Permission to run a call: `needsApproval` sends the tool's name and arguments, and `rememberable: true` (an
 * `answerApproval(id, { remember })` to it is remembered); a tool's own may send other data.
 */
export interface ApprovalRequest extends RequestBase {
  kind: "approval";
  data?: { tool?: string; args?: Record<string, unknown>; rememberable?: boolean; [key: string]: unknown };
}

/** A sign-in (an OAuth consent, an MCP URL elicitation) at `url`. */
export interface AuthorizationRequest extends RequestBase {
  kind: "authorization";
  url: string;
  data?: Record<string, unknown>;
}

/** One call a relay tool hands to the host. */
export interface RelayCall {
  id: string;
  name: string;
  input: unknown;
  arguments: string;
}

/** Relay calls for the host to run; answered with `relayAnswer(id, results)`. */
export interface ToolCallRequest extends RequestBase {
  kind: "tool_call";
  data: { calls: RelayCall[]; [key: string]: unknown };
}

/** A Request of a kind of the host's own. */
export interface CustomRequest<K extends string = string> extends RequestBase {
  kind: K;
  data?: Record<string, unknown>;
}

/** The kinds the SDK itself suspends with. */
export type BuiltinRequest = InputRequest | QuestionRequest | ApprovalRequest | AuthorizationRequest | ToolCallRequest;
export type BuiltinKind = BuiltinRequest["kind"];

/**
 * What a suspended tool asks for. A `switch (request.kind)` narrows to each built-in kind's `data`. A host with
 * kinds of its own names them, `PendingRequest<"my_kind">` (each then a {@link CustomRequest}); `PendingRequest<string>`
 * is any Request at all, the JSON shape.
 */
export type PendingRequest<Custom extends string = never> =
  | BuiltinRequest
  | (string extends Custom ? CustomRequest : CustomRequest<Exclude<Custom, BuiltinKind>>);

export type AnswerReason = "declined" | "cancelled" | "expired";

/** One result of a relay answer (`relayAnswer(id, results)`). */
export interface RelayResult {
  id: string;
  output: string;
  isError?: boolean;
}

/**
 * `Answer.data`: the keys the constructors write are typed (`answerOutput` ⇒ `output`/`isError`,
 * `relayAnswer` ⇒ `results`); a form answer's fields (`answerForm`) are the other keys.
 */
export interface AnswerData {
  output?: string;
  isError?: boolean;
  results?: RelayResult[];
  [field: string]: unknown;
}

/** Where a remembered approval holds (`answerApproval(id, { remember })`): the conversation, or the run's owner. */
export type ApprovalScope = "conversation" | "owner";

/** The host's reply to a {@link PendingRequest}. */
export interface Answer {
  id: string;
  ok: boolean;
  data?: AnswerData;
  reason?: AnswerReason;
  /** Why, in words, on a refusal: the model sees `declined/expired: <prompt> — <message>`. At most 1000 characters. */
  message?: string;
}

/**
 * An image or a file in a user message or a tool result: inline (`data`, base64) or by `url`, sent in each
 * wire's own shape.
 */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image"; data?: string; url?: string; mediaType: string }
  | { type: "file"; data?: string; url?: string; mediaType: string; filename?: string };

export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
  /** Images and files the tool returns beside `output` (a chart, a screenshot), sent to the model with it. */
  content?: ContentPart[];
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  args: unknown;
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

export type RunStatus = "done" | "pending" | "incomplete";

/** What every run result carries, whatever its status. */
export interface RunBase {
  text: string;
  messages: unknown[];
  toolCalls: ToolCallRecord[];
  toolCallCount: number;
  turns: number;
  usage: Usage;
  model: string;
}

/** The model gave its final answer. */
export interface DoneResult<O = unknown> extends RunBase {
  status: "done";
  /** The final answer parsed and validated against run's `output` schema (present only with one). */
  output?: O;
}

/** The run halted durably on a suspension; resume it with `client.resume(runId, answer)`. */
export interface PendingResult extends RunBase {
  status: "pending";
  /** The key to resume with. */
  runId: string;
  /** The first open Request, in tool-call order. */
  pending: PendingRequest;
  /** Every open Request of the halted turn, in tool-call order. */
  requests: PendingRequest[];
  /** A signed resume token for `pending`, when the client has a `resumeSecret`. */
  token?: string;
  /**
   * With `token`: a signed resume token for each of `requests`, in the same order (`tokens[0]` is `token`).
   * Answering several at once, pass each answer's own, in the answers' order: `resume(runId, answers, { tokens })`.
   */
  tokens?: string[];
}

export type RunLimit = "maxTurns" | "timeout" | "aborted";

/** The run stopped before the model's final answer: too many turns, the timeout, or an abort. */
export interface IncompleteResult extends RunBase {
  status: "incomplete";
  limit: RunLimit;
}

/** A union on `status`: narrow it (`if (result.status === "pending")`) to reach `runId`, `pending`, `limit`. */
export type RunResult<O = unknown> = DoneResult<O> | PendingResult | IncompleteResult;

/** What a run with an `output` schema resolves to: a done result always carries the typed `output`. */
export type OutputRunResult<O> = (DoneResult<O> & { output: O }) | PendingResult | IncompleteResult;

/**
 * Which conflict a {@link RunConflictError} is — the field callers branch on (never the message's words):
 * - `busy`: the conversation is streaming another exchange;
 * - `waiting`: the conversation waits on an open question;
 * - `claimed`: another resume holds the run;
 * - `answered`: that request was already answered (or expired);
 * - `finished`: the run is done;
 * - `changed`: a compare-and-set lost a race.
 */
export type ConflictReason = "busy" | "waiting" | "claimed" | "answered" | "finished" | "changed";

export type StreamEvent<R extends RunResult = RunResult> =
  | { type: "text"; delta: string }
  | { type: "reasoning"; delta: string }
  /** A tool call's arguments as the model writes them; a call's deltas joined are its final arguments. */
  | { type: "tool_input"; id: string; name: string; delta: string }
  | { type: "tool_call"; id: string; name: string; args: unknown }
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean }
  | { type: "pending"; request: PendingRequest; runId?: string; token?: string }
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: R }
  /** A failure after the stream started; `reason` says which conflict a `run_conflict` is. */
  | { type: "error"; code: string; reason?: ConflictReason; message: string };
