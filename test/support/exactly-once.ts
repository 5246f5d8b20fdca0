// The set-up of the exactly-once cases, written once: tools that suspend until answered (ask_city, ask_date,
// ask_seat) and side effects (charge, book), each counting its runs and idempotency keys, and a model that
// answers from the tool results it has seen.
import { defineTool, pending, type ToolContext } from "toolnexus";
import { scripted, toolResultsIn, type ScriptTurn } from "./scripted";

export const base = { baseUrl: "https://llm.test/v1", model: "m", apiKey: "sk-secret-key-123" } as const;

/** Fresh tools and their counts: how often each ran, and with which idempotency keys. */
export function kit() {
  const runs: Record<string, number> = {};
  const keys: string[] = [];
  const count = (n: string, ctx?: ToolContext) => {
    runs[n] = (runs[n] ?? 0) + 1;
    if (ctx?.idempotencyKey) keys.push(ctx.idempotencyKey);
  };
  const ask = (name: string, id: string) =>
    defineTool({
      name,
      description: `asks ${id}`,
      execute: (_a, ctx) => {
        if (!ctx?.answer) return pending({ kind: "input", prompt: `${id}?`, id });
        count(name, ctx);
        return `${name}=${(ctx.answer.data as { output?: string } | undefined)?.output ?? "ok"}`;
      },
    });
  const effect = (name: string) =>
    defineTool({
      name,
      description: `side effect ${name}`,
      execute: (_a, ctx) => {
        count(name, ctx);
        return `${name} done`;
      },
    });
  return {
    runs,
    keys,
    tools: [
      ask("ask_city", "q-city"),
      ask("ask_date", "q-date"),
      ask("ask_seat", "q-seat"),
      effect("charge"),
      effect("book"),
    ],
  };
}

/** A model that answers from its transcript: `plan` maps what it has seen so far to its next turn. */
export const model = (style: "openai" | "anthropic", plan: (seen: string) => ScriptTurn) =>
  scripted(
    style,
    Array.from({ length: 50 }, () => (b: Record<string, any>) => plan(toolResultsIn(b).join("|"))),
  );
