/** A JSON Schema object describing a tool's arguments. */
export interface JSONSchema {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

export type ToolSource = "native" | "http" | "builtin" | "relay" | "mcp" | "skill" | "a2a" | "custom";

/** What a suspended tool asks for. Keys are wire keys, fixed across every toolnexus port. */
export interface Request {
  id: string;
  kind: string;
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
  /** RFC 3339 timestamp after which an `ok` answer counts as expired. */
  expiresAt?: string;
}

export type AnswerReason = "declined" | "cancelled" | "expired";

/** The host's reply to a {@link Request}. */
export interface Answer {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: AnswerReason;
}

export interface ToolResult {
  output: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

export interface ToolContext {
  /** Present only when the tool is re-executed after its suspension was answered. */
  answer?: Answer;
  signal?: AbortSignal;
  runId?: string;
  callId?: string;
  /** `runId + ":" + callId`, stable across a durable resume. */
  idempotencyKey?: string;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  source: ToolSource;
  execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>;
}

export interface Toolkit {
  tools(): Tool[];
  get(name: string): Tool | undefined;
  execute(name: string, args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>;
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

export interface RunResult {
  status: RunStatus;
  text: string;
  messages: unknown[];
  toolCalls: ToolCallRecord[];
  toolCallCount: number;
  turns: number;
  usage: Usage;
  model: string;
  /** Present iff `status === "pending"`. */
  pending?: Request;
  /** Present iff `status === "pending"`: the key to resume with. */
  runId?: string;
  /** Present iff `status === "incomplete"`: `"maxTurns"`, `"timeout"` or `"aborted"`. */
  limit?: string;
}

export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args: unknown }
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean }
  | { type: "pending"; request: Request; runId?: string }
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: RunResult };

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
export interface RunStorage {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, opts?: SetOptions): Promise<void>;
  delete(key: string): Promise<void>;
  /** Writes `value` only if the current value is `expected` (`undefined` = absent). Resolves whether it wrote. */
  compareAndSet?(key: string, expected: string | undefined, value: string, opts?: SetOptions): Promise<boolean>;
  readonly capabilities: StorageCapabilities;
}
