// Runs a client call either as `run`/`resume` or as `stream`/`resumeStream`, so each scenario is checked
// both ways: the streamed `done` result must be the run's result.
import type { Answer, Client, RunOptions, RunResult, StreamEvent } from "toolnexus";

export type Mode = "run" | "stream";
export const MODES: Mode[] = ["run", "stream"];
export const STYLES = ["openai", "anthropic"] as const;
/** Every wire style, for the scenarios whose assertions hold on each provider's format. */
export const ALL_STYLES = ["openai", "openai-responses", "anthropic", "gemini"] as const;

export interface Driven {
  result: RunResult;
  events: StreamEvent[];
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<Driven> {
  const seen: StreamEvent[] = [];
  for await (const e of events) seen.push(e);
  const done = seen.at(-1);
  if (done?.type !== "done")
    throw new Error(`stream did not end with a done event: ${JSON.stringify(seen.map((e) => e.type))}`);
  return { result: done.result, events: seen };
}

export async function runIn(client: Client, mode: Mode, prompt: string, opts?: RunOptions): Promise<Driven> {
  if (mode === "run") return { result: await client.run(prompt, opts), events: [] };
  return drain(client.stream(prompt, opts));
}

export async function resumeIn(
  client: Client,
  mode: Mode,
  runId: string,
  answer: Answer,
  opts?: RunOptions,
): Promise<Driven> {
  if (mode === "run") return { result: await client.resume(runId, answer, opts), events: [] };
  return drain(client.resumeStream(runId, answer, opts));
}

export const types = (events: StreamEvent[]) => events.map((e) => e.type);
