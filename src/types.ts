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

/** The Standard Schema v1 interface (standardschema.dev), as much of it as a tool needs. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type StandardSchemaPathSegment = PropertyKey | { readonly key: PropertyKey };
type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly StandardSchemaPathSegment[] | undefined;
      }[];
    };

/** What a tool's `inputSchema` (or a run's `output`) may be. */
export type ToolInputSchema = JSONSchema | StandardSchemaV1;

declare const ARGS: unique symbol;

/** A plain JSON Schema that also carries, for the type checker only, the type `T` of the values it admits. */
export interface TypedJSONSchema<T> extends JSONSchema {
  readonly [ARGS]?: T;
}

/**
 * The type of the values a schema admits: a Standard Schema's (valibot, zod, …) output type, the `T`
 * of `jsonSchema<T>()`, and for a plain JSON Schema any object.
 */
export type InferSchema<S> =
  S extends StandardSchemaV1<unknown, infer O>
    ? O
    : S extends { readonly [ARGS]?: infer T }
      ? unknown extends T
        ? Record<string, unknown>
        : T
      : Record<string, unknown>;

export type ToolSource = "native" | "http" | "builtin" | "relay" | "mcp" | "skill" | "a2a" | "custom";

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

/** Permission to run a call: `needsApproval` sends the tool's name and arguments (a tool's own may send other data). */
export interface ApprovalRequest extends RequestBase {
  kind: "approval";
  data?: { tool?: string; args?: Record<string, unknown>; [key: string]: unknown };
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

export interface ToolContext {
  /** Present only when the tool is re-executed after its suspension was answered. */
  answer?: Answer;
  /** The `state` the tool passed to `pending(request, { state })`, when it is re-executed after it. */
  state?: unknown;
  /** Aborts with the run (its signal, `timeoutMs`) or the call's `toolTimeoutMs`. */
  signal: AbortSignal;
  runId: string;
  callId: string;
  /** `runId + ":" + callId`, stable across a durable resume. */
  idempotencyKey: string;
}

/** `true`, or a predicate of the (checked) arguments: the call must be approved before it runs. */
export type NeedsApproval<Args = Record<string, unknown>> =
  | boolean
  | ((args: Args, ctx: ToolContext) => boolean | Promise<boolean>);

export interface Tool {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  source: ToolSource;
  /** `"rerun"`: after a crash left a call's outcome unknown, run it again instead of reporting it interrupted. */
  recovery?: "rerun";
  /** Set ⇒ before `execute`, the call suspends with `kind: "approval"` until an ok answer approves it. */
  needsApproval?: NeedsApproval;
  /** With `needsApproval`: the approval Request expires after this many seconds. */
  approvalTimeoutSeconds?: number;
  /** What a passed deadline answers for this tool's Requests: `"decline"` (reason `expired`, the default) or `"cancel"`. */
  onExpire?: "decline" | "cancel";
  /** The prompt of the approval Request for a call with `args` (default: "Approve running the tool <name>?"). */
  approvalPrompt?(args: Record<string, unknown>): Promise<string>;
  /** Where a remote tool runs (an MCP server): its name, host and port, as telemetry reports them. */
  server?: { name: string; address: string; port?: number };
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * The tool's own words for a refusal (its Request, or its approval, declined, cancelled or expired): the
   * result the model sees instead of `declined/expired: <prompt>`. Never throws: a throw is an error result.
   */
  onDecline?(answer: Answer, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export interface Toolkit {
  tools(): Tool[];
  get(name: string): Tool | undefined;
  /** Runs one tool by name; a missing `ctx` (or field) is filled in: a signal that never aborts, a fresh call id. */
  execute(name: string, args: Record<string, unknown>, ctx?: Partial<ToolContext>): Promise<ToolResult>;
  toOpenAI(): OpenAIToolDeclaration[];
  toAnthropic(): AnthropicToolDeclaration[];
  toGemini(): GeminiToolDeclaration[];
}

/** Wherever a toolkit is accepted, a plain `Tool[]` is accepted too. */
export type ToolkitLike = Toolkit | readonly Tool[];

export interface OpenAIToolDeclaration {
  type: "function";
  function: { name: string; description: string; parameters: JSONSchema };
}
export interface AnthropicToolDeclaration {
  name: string;
  description: string;
  input_schema: JSONSchema;
}
export interface GeminiToolDeclaration {
  functionDeclarations: { name: string; description: string; parameters: JSONSchema }[];
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
  | { type: "error"; code: string; message: string };

export interface StorageCapabilities {
  /** `compareAndSet` is linearizable: two racing claims cannot both win. */
  atomic: boolean;
  /** `ttlSeconds` is honoured. */
  ttl: boolean;
}

export interface SetOptions {
  ttlSeconds?: number;
}

/** A string key-value store for suspended runs and conversations. */
/** A time source: `now()` in ms since the epoch, like `Date.now()`. */
export interface Clock {
  now(): number;
}

export interface RunStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, opts?: SetOptions): Promise<void>;
  delete(key: string): Promise<void>;
  /** Writes `value` only if the current value is `expected` (`undefined` = absent). Resolves whether it wrote. */
  compareAndSet?(key: string, expected: string | undefined, value: string, opts?: SetOptions): Promise<boolean>;
  readonly capabilities: StorageCapabilities;
}

export type MetricEvent =
  | { event: "llm"; model: string; status: "ok" | "error"; ms: number; promptTokens: number; completionTokens: number }
  | { event: "tool"; tool: string; source: string; isError: boolean; ms: number; pending?: true }
  | { event: "run"; model: string; turns: number; toolCalls: number; totalTokens: number; ms: number; error?: string };

export interface ErrorInfo {
  error?: unknown;
  status?: number;
  /** 0-based. */
  attempt: number;
  retryable: boolean;
}

type Awaitable<T> = T | Promise<T>;

export interface Hooks {
  /** Before each model call; may replace the messages/tools for the rest of the run. A throw ends the run. */
  beforeLLM?(info: {
    messages: unknown[];
    tools: unknown[];
    model: string;
    turn: number;
  }): Awaitable<void | { messages?: unknown[]; tools?: unknown[] }>;
  /** After each model call, with the raw response (or `{ streamed: true, usage }` when streaming). */
  afterLLM?(info: { response: unknown; model: string; turn: number }): Awaitable<void>;
  /** Before each tool call; may rewrite `args` or short-circuit with a `result` (a suspension too). */
  beforeTool?(info: {
    name: string;
    args: Record<string, unknown>;
    id: string;
    turn: number;
  }): Awaitable<void | { args?: Record<string, unknown>; result?: ToolResult }>;
  /** After each tool call that did not suspend; may replace the result. */
  afterTool?(info: {
    name: string;
    args: Record<string, unknown>;
    result: ToolResult;
    id: string;
    turn: number;
  }): Awaitable<void | { result?: ToolResult }>;
}

export interface ClientOptions {
  baseUrl: string;
  style: Style;
  model: string;
  /** Sent as a header only; never stored, logged or put in an error. Absent ⇒ env (Node/Deno) ⇒ no auth header. */
  apiKey?: string;
  headers?: Record<string, string>;
  systemPrompt?: string;
  /** Default 10. Reaching it ends the run `incomplete` with `limit: "maxTurns"`. */
  maxTurns?: number;
  /** Default 2 (0 = one attempt). */
  retries?: number;
  /** Default 500 ms, doubled per attempt, plus jitter. */
  retryBaseMs?: number;
  /** Added to 429, 500, 502, 503, 504, 529. */
  retryableStatuses?: readonly number[];
  /** A whole-run deadline: the run ends `incomplete` with `limit: "timeout"`. */
  timeoutMs?: number;
  /** A per-tool-call deadline: the call becomes an error result `tool <name> timed out after <n>ms`. */
  toolTimeoutMs?: number;
  onError?: (info: ErrorInfo) => "retry" | "fail";
  hooks?: Hooks;
  onMetric?: (event: MetricEvent) => void;
  /** Shallow-merged into every request body (caller wins); `messages`, `tools`, `stream` are refused. */
  requestParams?: Record<string, unknown>;
  /** Runs last on every request body; return a new body or mutate it. */
  bodyTransform?: (body: Record<string, unknown>) => Record<string, unknown> | void;
  /** The fetch used for model calls. Default `globalThis.fetch`, looked up per call. */
  fetch?: typeof fetch;
  /** Resolves a suspension inline. Absent ⇒ the run halts durably into `storage`. */
  waitFor?: (request: PendingRequest) => Promise<Answer>;
  /** Where halted runs and conversations live. Default `memoryStorage()` (per client). */
  storage?: RunStorage;
  /** How long a finished run's outcome is kept so a repeated identical answer gets it back. Default 86400. */
  completedTtlSeconds?: number;
  /**
   * How long a resume owns a claimed run, in ms (default 60000). Its owner renews it at every checkpoint
   * and gives it back when it goes away; past it, a resume with the same answer takes the run over.
   */
  claimLeaseMs?: number;
  /**
   * Halted runs expire from storage after this many seconds (adapters with TTL), never before a request's
   * `expiresAt`. Default 604800 (7 days); 0 keeps them until they are resumed or forgotten.
   */
  pendingTtlSeconds?: number;
  /**
   * A deadline on every Request a run halts on, in seconds (a positive number): past it the run continues by
   * itself as if answered `answerDeclined(id, "expired")`. A tool's own earlier `expiresAt` wins. Default: none.
   */
  answerTimeoutSeconds?: number;
  /** The one time source for deadlines, TTLs and leases (tests pass a fake one). Default the system clock. */
  clock?: Clock;
  /** Verifies `resume(…, { token })` tokens made by `createResumeToken(run, secret)`. Never stored, logged or put in an error. */
  resumeSecret?: string;
  /** With `resumeSecret`: a resume without a token is refused with ResumeTokenError. Default false. */
  requireResumeToken?: boolean;
  /** Observes every run (spans, with `otelTelemetry({ tracer })` from `toolnexus/otel`); never changes one. */
  telemetry?: Telemetry;
}

/**
 * An observer of runs: the loop reports a run's start and end, each model call and each tool call to it.
 * It is given no API key and no header; what it does with content is its own choice.
 */
export interface Telemetry {
  /** A run, or a resume of a halted one, begins. */
  run(info: { model: string; style: Style; baseUrl: string }): RunTelemetry;
}

/** One run as a telemetry sees it. No method may throw: the run does not catch what it throws. */
export interface RunTelemetry {
  /** The resume read its halted run's record: `trace` is what that run's `context()` returned, if anything. */
  resumed(trace: unknown): void;
  /** A model call ended: with the turn the model returned, or with the error the call failed with. */
  model(call: ModelCallReport): void;
  /** A tool call ended: with its result, or suspended with its `request`. */
  tool(call: ToolCallReport): void;
  /** Plain JSON a halted run's record keeps, so that its resume can be linked to this run. */
  context(): Record<string, unknown>;
  /**
   * The run ended with `result`, failed with `error`, or — neither — was given up by its caller (a stream
   * whose reader went away). Only the first call counts.
   */
  end(result: RunResult | undefined, error?: unknown): void;
}

export interface ModelCallReport {
  model: string;
  /** When the call started, in ms since the epoch. */
  started: number;
  /** The messages sent, in the provider's shape (the system prompt among them for OpenAI). */
  messages: readonly unknown[];
  system: string;
  turn?: {
    text: string;
    calls: readonly { id: string; name: string; args: unknown }[];
    usage: Usage;
    finishReason?: string;
  };
  /** The provider's JSON reply (`{ streamed: true, usage }` for a stream). */
  response?: unknown;
  error?: unknown;
}

export interface ToolCallReport {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** When the call started, in ms since the epoch. */
  started: number;
  /** The tool as the toolkit has it; undefined for a tool it lacks. */
  tool: Tool | undefined;
  result: ToolResult;
  /** The Request the call suspended with. */
  request: PendingRequest | undefined;
}

/** What a run starts from: text, or content parts (text, images, files) for one user message. */
export type Prompt = string | readonly ContentPart[];

export interface RunOptions {
  toolkit?: ToolkitLike;
  history?: readonly unknown[];
  signal?: AbortSignal;
  /**
   * The final answer's schema (valibot, zod, any Standard Schema, or `jsonSchema<T>()`): asked of the model
   * in the provider's structured-output mode, validated, and returned typed as `result.output`.
   */
  output?: ToolInputSchema;
  /**
   * Shallow-merged over the client's `requestParams` for this run's model calls (the run's keys win);
   * `messages`, `tools` and `stream` are refused as they are there.
   */
  requestParams?: Record<string, unknown>;
  /**
   * Runs as the next exchange of this conversation (what `ask(prompt, { id })` does): its transcript is the
   * history, and the outcome — or the run it now waits on — is saved to it with a compare-and-set.
   */
  conversationId?: string;
  /**
   * The new run's id, chosen by the caller (an edge handler that must key the run's event log before its
   * first event): 8 to 128 letters, digits, `-`, `_`, `.` or `:`, and fresh — e.g. `run-${crypto.randomUUID()}`.
   * A guessable or reused id lets others reach the run. Default: a fresh random id.
   */
  runId?: string;
  /**
   * Who the run is for (a user id; createRunHandler passes its `owner(request)`): approvals remembered with
   * `remember: "owner"` hold for this owner's runs alone.
   */
  owner?: string;
}

export interface ResumeOptions {
  toolkit?: ToolkitLike;
  signal?: AbortSignal;
  /**
   * Optional: the halted run keeps its `output` schema (as JSON Schema) and the resume validates the final
   * answer against it. Passed again, it types `result.output` and validates with the schema itself (its
   * library's checks and transforms), in place of the stored one.
   */
  output?: ToolInputSchema;
  /** Merged over the client's `requestParams` for the resumed run's model calls; a halt does not keep a run's own. */
  requestParams?: Record<string, unknown>;
  /**
   * A token from `createResumeToken` (or `result.token`) for the one request this resume answers; checked
   * against the client's `resumeSecret`. It lets no answer to another request through: use `tokens` for several.
   */
  token?: string;
  /** One token per answer, in the order of the answers, each issued for that answer's request. */
  tokens?: string[];
  /** Who the run is for, as when it started (see `RunOptions.owner`). */
  owner?: string;
}
