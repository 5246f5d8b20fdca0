// The hostile-values cases' set-up, written once: values nested deep, a check that no prototype was
// polluted, a crash detector (anything but a typed ToolnexusError), and a tool that suspends once and keeps
// what it saw.
import { defineTool, isToolnexusError, pending, type Tool, type ToolContext } from "toolnexus";
import { expect } from "vitest";

export const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
export const nestedValue = (depth: number): unknown => JSON.parse(nested(depth));

export function unpolluted(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  expect(Object.hasOwn(Array.prototype, "polluted")).toBe(false);
}

/** `""` when the call resolved or rejected with a typed ToolnexusError; else `"<label>: <the untyped error>"`. */
export async function crash(label: string, promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "";
  } catch (error) {
    return isToolnexusError(error) ? "" : `${label}: ${String(error).slice(0, 120)}`;
  }
}

export const crashes = async (checks: Promise<string>[]): Promise<string[]> =>
  (await Promise.all(checks)).filter(Boolean);

/** A tool that suspends once, then returns what it saw; `seen` keeps every call's args and answer. */
export function probe(name = "probe", inputSchema: Tool["inputSchema"] = { type: "object" }) {
  const seen: { args: Record<string, unknown>; answer?: ToolContext["answer"] }[] = [];
  const tool = defineTool({
    name,
    description: "suspends once",
    inputSchema,
    execute: (args, ctx) => {
      seen.push({ args, ...(ctx?.answer ? { answer: ctx.answer } : {}) });
      return ctx?.answer
        ? `got ${String(ctx.answer.data?.output).length} chars`
        : pending({ kind: "input", prompt: "more?", id: "q" });
    },
  });
  return { tool, seen };
}
