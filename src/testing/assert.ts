// The few assertions the storage contract needs, so it runs under any test runner (vitest, node:test, Deno,
// Bun) without bringing one's `expect`. Each failure says what was checked, what was expected and what came.
export class ContractAssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractAssertionError";
  }
}

/** A short, readable form of a value: long strings show their length and ends. */
export function show(value: unknown): string {
  if (typeof value === "string") {
    return value.length > 80
      ? `${JSON.stringify(value.slice(0, 40))}…${JSON.stringify(value.slice(-20))} (${value.length} chars)`
      : JSON.stringify(value);
  }
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    kb.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** `actual` is `expected` (Object.is), or for objects and arrays has the same entries. */
export function equal(actual: unknown, expected: unknown, what: string): void {
  if (!same(actual, expected))
    throw new ContractAssertionError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function ok(condition: boolean, what: string): void {
  if (!condition) throw new ContractAssertionError(what);
}

/** The promise rejects with an error whose message contains `includes`. */
export async function rejects(promise: Promise<unknown>, includes: string, what: string): Promise<void> {
  let outcome: { value: unknown } | undefined;
  try {
    outcome = { value: await promise };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!message.includes(includes))
      throw new ContractAssertionError(`${what}: expected an error mentioning ${show(includes)}, got ${show(message)}`);
    return;
  }
  throw new ContractAssertionError(
    `${what}: expected a rejection mentioning ${show(includes)}, it resolved to ${show(outcome.value)}`,
  );
}
