// What the deadline tests share: a fake clock, a client on it, an approval with a timeout, and a model that
// repeats every tool result it was sent (so a test reads what the model saw in the run's text).
import { createClient, defineTool, memoryStorage, pending, type ClientOptions, type RunStorage } from "toolnexus";
import { scripted, toolResultsIn, type ScriptTurn } from "./scripted";

export const T0 = Date.parse("2030-01-01T00:00:00.000Z");

/** A clock a test moves by hand. */
export function fakeClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

/** The model: calls `first` (one turn of calls), then repeats every tool result it was sent, `rounds` times. */
export function echoModel(first: ScriptTurn, rounds = 4) {
  const echo = (body: Record<string, unknown>) => ({ text: toolResultsIn(body).join("|") });
  return scripted("openai", [first, ...Array.from({ length: rounds }, () => echo)]);
}

/** `book` waits for an approval that times out after `seconds`; `runs` counts how often it really ran. */
export function approvalTool(seconds = 60, extra: Record<string, unknown> = {}) {
  const state = { runs: 0 };
  const tool = defineTool({
    name: "book",
    description: "books a table",
    needsApproval: true,
    approvalTimeoutSeconds: seconds,
    execute: () => {
      state.runs++;
      return "booked";
    },
    ...extra,
  } as never);
  return { tool, state };
}

/** `ask` asks the question in `args.q`, due `args.in` seconds after the clock's now (none: no deadline of its own). */
export function askTool(clock: { now(): number }) {
  const state = { runs: 0 };
  const tool = defineTool({
    name: "ask",
    description: "asks the user",
    execute: (args: Record<string, unknown>, ctx) => {
      if (!ctx.answer) {
        const expiresAt =
          typeof args.in === "number" ? new Date(clock.now() + args.in * 1000).toISOString() : undefined;
        return pending({ kind: "question", prompt: String(args.q), id: `q-${String(args.q)}`, expiresAt });
      }
      state.runs++;
      return `answer ${String(ctx.answer.data?.output)}`;
    },
  });
  return { tool, state };
}

/** A client on `clock` and `storage` (a memory store on the same clock by default). */
export function clientOn(
  clock: { now(): number },
  fetch: typeof globalThis.fetch,
  extra: Partial<ClientOptions> = {},
  storage: RunStorage = memoryStorage({ now: clock.now }),
) {
  return createClient({
    baseUrl: "https://llm.test/v1",
    style: "openai",
    model: "m",
    apiKey: "sk-test",
    fetch,
    storage,
    clock,
    ...extra,
  });
}
