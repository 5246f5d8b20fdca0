// `defineTool` and the machinery every tool shares: arguments checked before the tool runs, any return
// value turned into a ToolResult, and any throw turned into an error result — tool failures are data.
import { ConfigError, errorMessage, shown } from "../errors";
import { toolSchema, type InferSchema, type ToolInputSchema, type ToolSchema } from "./schema/input-schema";
import type { Answer, JSONSchema, ToolResult } from "../types";
import type { NeedsApproval, Tool, ToolContext, ToolSource } from "./types";

export interface DefineToolOptions<S extends ToolInputSchema = JSONSchema> {
  name: string;
  description: string;
  /**
   * A JSON Schema object (typed with `jsonSchema<T>()`), or a valibot / zod / Standard Schema; the
   * arguments `execute` gets are typed from it. Default: any object.
   */
  inputSchema?: S;
  /** `true` or a predicate of the arguments: the call waits for an approval (`kind: "approval"`) before it runs. */
  needsApproval?: NeedsApproval<InferSchema<S>>;
  /**
   * The words the approval asks with: a string, or a function of the checked arguments that returns one
   * (e.g. "Deploy v42 to production?" from `{ version, env }`). Default: `"Approve running the tool <name>?"`.
   * An empty string, a throw or arguments that do not check give the default.
   */
  approvalPrompt?: string | ((args: InferSchema<S>) => string);
  /** Returns a string, a ToolResult (e.g. `pending(...)`), `undefined`, or any JSON value. May throw. */
  execute: (args: InferSchema<S>, ctx: ToolContext) => unknown;
  /**
   * After a crash left a call's outcome unknown, `"rerun"` runs it again (with the same answer and
   * `ctx.idempotencyKey`) instead of reporting `interrupted: <tool> did not finish` to the model. Only for
   * tools that are safe to run twice, or that deduplicate on the idempotency key.
   */
  recovery?: "rerun";
  /** With `needsApproval`: the approval Request expires after this many seconds (a positive number). */
  approvalTimeoutSeconds?: number;
  /**
   * What a passed deadline answers for this tool's Requests: `"decline"` (reason `expired`, the default) or
   * `"cancel"` (reason `cancelled`). Either way the tool does not run; `onDecline` may word it.
   */
  onExpire?: "decline" | "cancel";
  /**
   * The tool's own words when its Request (or its approval) is declined, cancelled or expired: what it returns
   * is the tool result the model sees instead of `declined/expired: <prompt>` — a string or JSON value as an
   * error result, a ToolResult as it is. `answer.message` says why, when the user said. May throw.
   */
  onDecline?: (answer: Answer, args: InferSchema<S>, ctx: ToolContext) => unknown;
}

/** A tool the model can call. Its arguments are checked against `inputSchema` before `execute` runs. */
/* @__NO_SIDE_EFFECTS__ */
export function defineTool<S extends ToolInputSchema = JSONSchema>(options: DefineToolOptions<S>): Tool {
  const name = requireToolName("defineTool", options);
  const fn = `defineTool "${name}"`;
  const { execute, onDecline, recovery, approvalPrompt } = options;
  if (typeof execute !== "function") throw badOption(fn, "execute", "a function", execute);
  if (approvalPrompt !== undefined && typeof approvalPrompt !== "string" && typeof approvalPrompt !== "function")
    throw badOption(fn, "approvalPrompt", "a string, a function of the arguments, or left out", approvalPrompt);
  if (onDecline !== undefined && typeof onDecline !== "function")
    throw badOption(fn, "onDecline", "a function or left out", onDecline);
  if (recovery !== undefined && recovery !== "rerun") throw badOption(fn, "recovery", '"rerun" or left out', recovery);
  const expiry = expiryOptions(fn, options);
  const tool = makeTool({
    name,
    description: options.description,
    source: "native",
    schema: toolSchema(options.inputSchema, name),
    run: execute as ToolSpec["run"],
    needsApproval: options.needsApproval as NeedsApproval | undefined,
    approvalPrompt: approvalPrompt as ToolSpec["approvalPrompt"],
    onDecline: onDecline as ToolSpec["onDecline"],
  });
  return { ...tool, ...(recovery ? { recovery } : {}), ...expiry };
}

/** `approvalTimeoutSeconds` and `onExpire`, checked (semantics 8): only those given. */
function expiryOptions(
  fn: string,
  options: { approvalTimeoutSeconds?: unknown; onExpire?: unknown },
): Pick<Tool, "approvalTimeoutSeconds" | "onExpire"> {
  const { approvalTimeoutSeconds: seconds, onExpire } = options;
  if (seconds !== undefined && !(typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0))
    throw badOption(fn, "approvalTimeoutSeconds", "a number > 0 or left out", seconds);
  if (onExpire !== undefined && onExpire !== "decline" && onExpire !== "cancel")
    throw badOption(fn, "onExpire", '"decline", "cancel" or left out', onExpire);
  return {
    ...(seconds === undefined ? {} : { approvalTimeoutSeconds: seconds as number }),
    ...(onExpire ? { onExpire } : {}),
  };
}

/**
 * A complete ToolContext from a partial one (a direct `toolkit.execute(name, args)` outside a run):
 * a signal that never aborts and a fresh call id.
 */
export function toolContext(ctx?: Partial<ToolContext>): ToolContext {
  // `"signal" in ctx`, not its value: the loop's signal is made on first use, and a tool that never reads it
  // should not have one made for it here
  if (ctx && "signal" in ctx && typeof ctx.runId === "string" && typeof ctx.callId === "string" && ctx.idempotencyKey)
    return ctx as ToolContext;
  const runId = ctx?.runId ?? "";
  const callId = ctx?.callId ?? `call-${crypto.randomUUID()}`;
  return {
    ...ctx,
    signal: ctx?.signal ?? new AbortController().signal,
    runId,
    callId,
    idempotencyKey: ctx?.idempotencyKey ?? `${runId}:${callId}`,
  };
}

/** The ConfigError for a bad option: `toolnexus: <fn>: <field> must be <want>, got <value>`. */
export const badOption = (fn: string, field: string, want: string, value: unknown, got = shown(value)): ConfigError =>
  new ConfigError(field, `toolnexus: ${fn}: ${field} must be ${want}, got ${got}`);

/** Checks the options every tool factory shares; returns the name. */
export function requireToolName(fn: string, options: { name?: unknown; description?: unknown } | undefined): string {
  const name = options?.name;
  if (typeof name !== "string" || name === "") throw badOption(fn, "name", "a non-empty string", name);
  if (typeof options!.description !== "string")
    throw badOption(`${fn} "${name}"`, "description", "a string", options!.description);
  return name;
}

export interface ToolSpec {
  name: string;
  description: string;
  source: ToolSource;
  schema: ToolSchema;
  run(args: Record<string, unknown>, ctx: ToolContext): unknown;
  /** Before `run`, the call waits for an approval (see approval.ts). */
  needsApproval?: NeedsApproval | undefined;
  /** The approval's words (see DefineToolOptions.approvalPrompt). */
  approvalPrompt?: string | ((args: Record<string, unknown>) => string) | undefined;
  /** The tool's own refusal (see DefineToolOptions.onDecline). */
  onDecline?: ((answer: Answer, args: Record<string, unknown>, ctx: ToolContext) => unknown) | undefined;
  /** Errors meant for the host, not the model (they propagate out of `execute`). */
  rethrow?: (error: unknown) => boolean;
}

/**
 * A predicate `needsApproval` as the loop calls it (it gates every tool, before `execute`): given the checked
 * arguments, as its type says; arguments that do not check need no approval — `execute` refuses them.
 */
function checkedPredicate(schema: ToolSchema, needsApproval: NeedsApproval | undefined): NeedsApproval | undefined {
  if (typeof needsApproval !== "function") return needsApproval;
  return async (args, ctx) => {
    const checked = await schema.check(args ?? {});
    return checked.ok && needsApproval(checked.value as Record<string, unknown>, ctx);
  };
}

/**
 * A tool's `approvalPrompt` as the approval step calls it: given the checked arguments, as its type says; a
 * throw, arguments that do not check or a return that is not a string give "" (the generic prompt).
 */
function wordedBy(schema: ToolSchema, prompt: string | ((args: Record<string, unknown>) => string)) {
  return async (args: Record<string, unknown>): Promise<string> => {
    if (typeof prompt === "string") return prompt;
    try {
      const checked = await schema.check(args ?? {});
      const words = checked.ok ? prompt(checked.value as Record<string, unknown>) : "";
      return typeof words === "string" ? words : "";
    } catch {
      return "";
    }
  };
}

/** Builds a Tool from a spec: check the arguments, run, normalise the result, never crash on a tool's throw. */
export function makeTool(spec: ToolSpec): Tool {
  const { name, schema } = spec;
  const needsApproval = checkedPredicate(schema, spec.needsApproval);
  return {
    name,
    description: spec.description,
    inputSchema: schema.json,
    source: spec.source,
    ...(needsApproval === undefined ? {} : { needsApproval }),
    ...(spec.approvalPrompt ? { approvalPrompt: wordedBy(schema, spec.approvalPrompt) } : {}),
    ...(spec.onDecline ? { onDecline: declineWith(spec, spec.onDecline) } : {}),
    async execute(args, given) {
      try {
        const checked = await schema.check(args ?? {});
        if (!checked.ok) return { output: `Invalid arguments for ${name}: ${checked.problems}`, isError: true };
        return toToolResult(name, await spec.run(checked.value, toolContext(given)));
      } catch (error) {
        if (spec.rethrow?.(error)) throw error;
        const message = thrownMessage(error);
        // a builtin's failure says which builtin: `"<name>: <message>"`
        return { output: spec.source === "builtin" ? `${name}: ${message}` : message, isError: true };
      }
    },
  };
}

/** A tool's `onDecline` as the loop calls it: a string or JSON value is an error result, a throw too. */
function declineWith(spec: ToolSpec, onDecline: NonNullable<ToolSpec["onDecline"]>): NonNullable<Tool["onDecline"]> {
  return async (answer, args, given) => {
    try {
      const checked = await spec.schema.check(args ?? {});
      const value = await onDecline(answer, checked.ok ? checked.value : args, toolContext(given));
      const result = toToolResult(spec.name, value);
      return isToolResult(value) ? result : { ...result, isError: true };
    } catch (error) {
      return { output: thrownMessage(error), isError: true };
    }
  };
}

/** A string ⇒ output; a ToolResult ⇒ as is; `undefined` ⇒ `""`; anything else ⇒ its JSON, or an error result. */
export function toToolResult(name: string, value: unknown): ToolResult {
  if (value === undefined || typeof value === "string") return { output: value ?? "", isError: false };
  if (isToolResult(value)) return value;
  let json: string | undefined;
  let why = "";
  try {
    json = JSON.stringify(value);
  } catch (error) {
    why = ` (${thrownMessage(error).split("\n", 1)[0]})`;
  }
  if (json !== undefined) return { output: json, isError: false };
  return {
    output: `tool ${name} returned a ${typeof value} that cannot be turned into JSON${why} — return a string, a ToolResult or a JSON value`,
    isError: true,
  };
}

const isToolResult = (value: unknown): value is ToolResult =>
  typeof (value as ToolResult | null)?.output === "string" && typeof (value as ToolResult).isError === "boolean";

/** The message of anything thrown — an Error, a string, `null`, an object whose `toString` throws. */
export function thrownMessage(error: unknown): string {
  try {
    const e = error as { message?: unknown; name?: unknown } | null;
    if (typeof e?.message !== "string") return errorMessage(error);
    return e.message || (typeof e.name === "string" && e.name) || "Error";
  } catch {
    return "the tool threw a value that cannot be described";
  }
}
