// The tools of one turn: each call checked, approved when it must be, run under its deadline through the
// hooks, and its outcome — a result or an open request — returned for the loop to record.
import { parseRequest } from "../answer-parse";
import { errorMessage } from "../errors";
import { approvalGate, rememberedBy } from "../tools/approval";
import type { Answer, PendingRequest, ToolResult } from "../types";
import type { ToolContext } from "../tools/types";
import type { ToolCall } from "../wire/types";
import { anySignal } from "../_internal/signals";
import { isRunFailure } from "../_internal/run-failure";
import type { StoredCall } from "../run-state/record";
import { withDeadline } from "./deadline";
import type { LoopState, RunContext } from "./context";

/**
 * One call of a turn in flight: the call as the model made it and the result it came to — for a call that
 * suspended, the suspension itself, beside the request and state the record keeps (see StoredCall).
 */
export type CallOutcome = Pick<StoredCall, "args" | "request" | "state"> & { call: ToolCall; result: ToolResult };

/** `result` with `metadata` in place of its own: none at all when that is empty. */
function withMetadata(result: ToolResult, metadata: Record<string, unknown>): ToolResult {
  const { metadata: _, ...rest } = result;
  return Object.keys(metadata).length ? { ...rest, metadata } : rest;
}

/** A result that did not suspend keeps none of the suspension's metadata. */
function withoutPending(result: ToolResult): ToolResult {
  if (!result.metadata) return result;
  const { pending: _, pendingState: __, ...metadata } = result.metadata;
  return withMetadata(result, metadata);
}

function fits(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Results are recorded and stored as JSON: metadata JSON cannot hold (BigInt, cycles) is dropped, keeping a
 * storable `pending` Request, so a halt or a resume never crashes on what a tool attached.
 */
function storable(result: ToolResult): ToolResult {
  if (!result.metadata || fits(result.metadata)) return result;
  const { pending } = result.metadata;
  return withMetadata(result, pending !== undefined && fits(pending) ? { pending } : {});
}

/**
 * Runs the call's tool through its approval step (any tool's `needsApproval` — defineTool's, an MCP server's, a
 * hand-written Tool's — is gated here): an approval remembered for the run's conversation or owner lets a fresh
 * call run without asking; an ok answer that asks to be remembered is remembered before the tool runs.
 * Otherwise, `approvalGate` decides.
 */
async function execute(
  ctx: RunContext,
  state: LoopState,
  call: ToolCall,
  args: Record<string, unknown>,
  toolCtx: ToolContext,
): Promise<ToolResult> {
  // the call's span, open while the tool runs: a run it starts (an agent's task) nests under it
  toolCtx.traceParent = ctx.trace?.toolStarted?.(call);
  const toolkit = ctx.toolkit;
  if (!toolkit) return { output: `Unknown tool: ${call.name}`, isError: true };
  const tool = toolkit.get(call.name);
  const needsApproval = tool?.needsApproval;
  const memory = ctx.approvals;
  // the run's state is where it is: its runId and conversationId
  if (needsApproval && !(memory && !toolCtx.answer && (await memory.allowed(state, call.name, args)))) {
    const gate = await approvalGate(call.name, needsApproval, args, toolCtx, tool?.approvalPrompt);
    if ("result" in gate) return gate.result;
    const remember = rememberedBy(toolCtx.answer);
    if (memory && remember) await memory.remember(state, call.name, args, remember);
    toolCtx = gate.ctx;
  }
  return toolkit.execute(call.name, args, toolCtx);
}

/**
 * Runs `work` — a tool's `execute`, or its `onDecline` — with the call's ToolContext. A throw, a hang past
 * `toolTimeoutMs` (the signal aborts with a TimeoutError) or a return that is not a ToolResult
 * (`returned an invalid <what>`) becomes an error result; never a crash.
 */
export async function bounded(
  ctx: RunContext,
  state: LoopState,
  call: ToolCall,
  what: string,
  work: (toolCtx: ToolContext) => unknown,
  answer?: Answer,
  toolState?: unknown,
): Promise<ToolResult> {
  const limit = ctx.opts.toolTimeoutMs;
  const controller = limit ? new AbortController() : undefined;
  const signal =
    controller && ctx.signal ? anySignal([ctx.signal, controller.signal]) : (controller?.signal ?? ctx.signal);
  let never: AbortSignal | undefined;
  const toolCtx = {
    // a run nothing can abort has no signal; a tool that asks gets one that never aborts, made on first use
    get signal(): AbortSignal {
      if (signal) return signal;
      never ??= new AbortController().signal;
      return never;
    },
    runId: state.runId,
    callId: call.id,
    idempotencyKey: `${state.runId}:${call.id}`,
  } as ToolContext;
  // marked for the tools that hand their signal on (handedSignal): none is made, no listener waits on it
  if (!signal) (toolCtx as unknown as Record<symbol, number>)[Symbol.for("toolnexus.unabortable")] = 1;
  if (answer) toolCtx.answer = answer;
  if (toolState !== undefined) toolCtx.state = toolState;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const running = work(toolCtx);
    // a race only when there is a limit: an untimed call awaits its tool alone (no promise per call that never settles)
    const result = (await (controller
      ? Promise.race([
          running,
          new Promise((resolve) => {
            timer = setTimeout(() => {
              const output = `tool ${call.name} timed out after ${limit}ms`;
              controller.abort(new DOMException(output, "TimeoutError"));
              resolve({ output, isError: true });
            }, limit);
          }),
        ])
      : running)) as ToolResult;
    if (typeof result?.output === "string" && typeof result.isError === "boolean") return storable(result);
    return { output: `tool ${call.name} returned an invalid ${what}`, isError: true };
  } catch (error) {
    if (isRunFailure(error)) throw error; // e.g. an agent's task call whose child could not be reached
    return { output: errorMessage(error), isError: true };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Runs one tool (hooks, metric). `answer` ⇒ a re-execution after a suspension: `beforeTool` is not re-entered. */
export async function runTool(
  ctx: RunContext,
  state: LoopState,
  call: ToolCall,
  args: Record<string, unknown>,
  answer?: Answer,
  toolState?: unknown,
): Promise<CallOutcome> {
  const hooks = ctx.opts.hooks;
  const turn = state.turns - 1;
  const started = Date.now();
  let result: ToolResult | undefined;
  if (call.argsError && !answer) {
    result = { output: call.argsError, isError: true };
  } else if (!answer && hooks?.beforeTool) {
    const hooked = await hooks.beforeTool({ name: call.name, args, id: call.id, turn });
    if (hooked?.args) args = hooked.args;
    result = hooked?.result;
  }
  result ??= await bounded(
    ctx,
    state,
    call,
    "result (expected { output: string, isError: boolean })",
    (toolCtx) => execute(ctx, state, call, args, toolCtx),
    answer,
    toolState,
  );
  // the Request a result suspends with is checked (as is: the request goes on as the tool made it); one that
  // could not be stored and resumed is refused here
  let request: PendingRequest | undefined;
  const pending = result.metadata?.pending;
  try {
    if (pending !== undefined) request = parseRequest(pending) && (pending as PendingRequest);
  } catch (error) {
    result = { output: `tool ${call.name} suspended with an unusable request: ${errorMessage(error)}`, isError: true };
  }
  const tool = ctx.toolkit?.get(call.name);
  if (request) {
    // the deadline the Request carries from here on: its own, or an earlier one from a timeout option
    request = withDeadline(ctx, tool, request);
    result = { ...result, metadata: { ...result.metadata, pending: request } };
  }
  ctx.trace?.tool({ id: call.id, name: call.name, args, started, tool, result, request });
  ctx.metrics.record({
    event: "tool",
    tool: call.name,
    source: tool?.source ?? "custom",
    isError: request ? false : result.isError,
    ms: Date.now() - started,
    ...(request ? { pending: true as const } : {}),
  });
  if (request) return { call, args, result, request, state: result.metadata?.pendingState };
  if (hooks?.afterTool) {
    const hooked = await hooks.afterTool({ name: call.name, args, result, id: call.id, turn });
    if (hooked?.result) result = hooked.result;
  }
  return { call, args, result: withoutPending(result) };
}

/** Runs every call of a turn concurrently; outcomes come back in tool-call order. */
export function runTurn(ctx: RunContext, state: LoopState, calls: readonly ToolCall[]): Promise<CallOutcome[]> {
  return Promise.all(calls.map((call) => runTool(ctx, state, call, call.args)));
}
