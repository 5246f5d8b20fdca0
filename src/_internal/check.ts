// Structural checks for untrusted JSON — answers, requests, stored run records — in a few hundred bytes
// instead of a schema library on every run's path. The first problem wins and carries its dot path.
import { isPlainObject, typeName } from "./json";

/** Throws a {@link Problem} when `value` does not fit. Paths are only built when a problem unwinds. */
export type Check = (value: unknown) => void;

export class Problem {
  constructor(
    public path: string,
    readonly message: string,
    readonly value: unknown,
  ) {}

  /** `"path" must be …, got number` (or `, but it is missing`); the message alone at the top. */
  describe(): string {
    if (!this.path) return this.message;
    return `"${this.path}" ${this.message}${this.value === undefined ? ", but it is missing" : `, got ${typeName(this.value)}`}`;
  }
}

/** Runs `check` on a member; a problem found inside gets `key` prefixed to its path. */
function member(check: Check, value: unknown, key: string | number): void {
  try {
    check(value);
  } catch (error) {
    if (error instanceof Problem) error.path = error.path ? `${key}.${error.path}` : String(key);
    throw error;
  }
}

// Every combinator only builds a check and touches nothing else.

/* @__NO_SIDE_EFFECTS__ */
export function is(test: (value: unknown) => boolean, message: string): Check {
  return (value) => {
    if (!test(value)) throw new Problem("", message, value);
  };
}

/* @__NO_SIDE_EFFECTS__ */
export function optional(check: Check): Check {
  return (value) => {
    if (value !== undefined) check(value);
  };
}

/* @__NO_SIDE_EFFECTS__ */
export function jsonObject(message = "must be a JSON object"): Check {
  return is(isPlainObject, message);
}

export const array = is(Array.isArray, "must be an array");

/* @__NO_SIDE_EFFECTS__ */
export function arrayOf(item: Check): Check {
  return (value) => {
    array(value);
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) member(item, items[i], i);
  };
}

/** An object with these fields (others are let through). */
/* @__NO_SIDE_EFFECTS__ */
export function shape(fields: Record<string, Check>, message?: string): Check {
  const object = jsonObject(message);
  return (value) => {
    object(value);
    for (const key in fields) member(fields[key]!, (value as Record<string, unknown>)[key], key);
  };
}

export const string = is((x) => typeof x === "string", "must be a string");
export const nonEmpty = is((x) => typeof x === "string" && x !== "", "must be a non-empty string");
export const boolean = is((x) => typeof x === "boolean", "must be a boolean");

/* @__NO_SIDE_EFFECTS__ */
export function oneOf(
  values: readonly unknown[],
  message = `must be ${values.map((x) => JSON.stringify(x)).join(", ")}`,
): Check {
  return is((x) => values.includes(x), message);
}

/** The first problem `check` finds in `value`, or undefined. */
export function problemIn(check: Check, value: unknown): Problem | undefined {
  try {
    check(value);
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  return undefined;
}
