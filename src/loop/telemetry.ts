// What a run reports as it goes: the metric events `onMetric` receives, and the telemetry interface (a run,
// its model calls and its tool calls) that `otelTelemetry` implements.
import type { PendingRequest, RunResult, Style, ToolResult, Usage } from "../types";
import type { Tool } from "../tools/types";

export type MetricEvent =
  | { event: "llm"; model: string; status: "ok" | "error"; ms: number; promptTokens: number; completionTokens: number }
  | { event: "tool"; tool: string; source: string; isError: boolean; ms: number; pending?: true }
  | { event: "run"; model: string; turns: number; toolCalls: number; totalTokens: number; ms: number; error?: string };

/**
 * An observer of runs: the loop reports a run's start and end, each model call and each tool call to it.
 * It is given no API key and no header; what it does with content is its own choice.
 */
export interface Telemetry {
  /** A run, or a resume of a halted one, begins. */
  /** `agent`: the run is that agent's (toolnexus/agents), named so in its span. */
  /** `parent`: the run was started inside a tool call, with what that call's `toolStarted` returned. */
  run(info: { model: string; style: Style; baseUrl: string; agent?: string; parent?: unknown }): RunTelemetry;
}

/** One run as a telemetry sees it. No method may throw: the run does not catch what it throws. */
export interface RunTelemetry {
  /** The resume read its halted run's record: `trace` is what that run's `context()` returned, if anything. */
  resumed(trace: unknown): void;
  /** A model call ended: with the turn the model returned, or with the error the call failed with. */
  model(call: ModelCallReport): void;
  /**
   * A tool call starts (optional): what it returns is the call's `ctx.traceParent`, the parent of the runs
   * the tool starts. The call's end is reported to `tool` as ever.
   */
  toolStarted?(call: { id: string; name: string }): unknown;
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
