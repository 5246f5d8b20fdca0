// Structural checks for untrusted JSON — answers, requests, stored run records — in a few hundred bytes
// instead of a schema library on every run's path. The first problem wins and carries its dot path.
import { typeName } from "./answer";
import { isPlainObject } from "./json";

/** Throws a {@link Problem} when `value` (found at `path`) does not fit. */
export type Check = (value: unknown, path: string) => void;

export class Problem {
  constructor(
    readonly path: string,
    readonly message: string,
    readonly value: unknown,
  ) {}

  /** `"path" must be …, got number` (or `, but it is missing`); the message alone at the top. */
  describe(): string {
    if (!this.path) return this.message;
    return `"${this.path}" ${this.message}${this.value === undefined ? ", but it is missing" : `, got ${typeName(this.value)}`}`;
  }
}

const at = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));

export const is =
  (test: (value: unknown) => boolean, message: string): Check =>
  (value, path) => {
    if (!test(value)) throw new Problem(path, message, value);
  };

export const optional =
  (check: Check): Check =>
  (value, path) => {
    if (value !== undefined) check(value, path);
  };

export const jsonObject = (message = "must be a JSON object"): Check => is(isPlainObject, message);

const array = is(Array.isArray, "must be an array");

export const arrayOf =
  (item: Check): Check =>
  (value, path) => {
    array(value, path);
    (value as unknown[]).forEach((x, i) => item(x, at(path, i)));
  };

/** An object with these fields (others are let through). */
export const shape = (fields: Record<string, Check>, message?: string): Check => {
  const object = jsonObject(message);
  return (value, path) => {
    object(value, path);
    for (const key in fields) fields[key]!((value as Record<string, unknown>)[key], at(path, key));
  };
};

export const string = is((x) => typeof x === "string", "must be a string");
export const nonEmpty = is((x) => typeof x === "string" && x !== "", "must be a non-empty string");
export const boolean = is((x) => typeof x === "boolean", "must be a boolean");
export const oneOf = (values: readonly unknown[], message = `must be ${values.map((x) => JSON.stringify(x)).join(", ")}`): Check => is((x) => values.includes(x), message);

/** The first problem `check` finds in `value`, or undefined. */
export function problemIn(check: Check, value: unknown): Problem | undefined {
  try {
    check(value, "");
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  return undefined;
}
