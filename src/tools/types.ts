// What a tool is, as the loop and the toolkit see it: its schema types, its context, the tool and the toolkit
// interfaces, and the declarations each provider is sent.
import type { Answer, JSONSchema, ToolResult } from "../types";

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

export type ToolSource = "native" | "http" | "builtin" | "relay" | "mcp" | "skill" | "a2a" | "agent" | "custom";

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
  /**
   * With telemetry: this call's span, opaque. A run the tool starts passes it as `traceParent` to nest under it.
   */
  traceParent?: unknown;
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
  /** The prompt of the approval Request for a call with `args` (default: `"Approve running the tool <name>?"`). */
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
