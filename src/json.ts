// JSON-safety helpers shared by validation, translate and the run record (no valibot here, so the
// modules that only need these stay small).
import { typeName } from "./answer";
import { InvalidAnswerError } from "./errors";

const MAX_DEPTH = 64;

/**
 * A JSON-safe copy of `value`: plain objects, arrays, strings, finite numbers, booleans and null.
 * `__proto__` keys are dropped so nothing downstream can reach an object prototype through them.
 */
export function cloneJson(value: unknown, what: string, field: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is ${value}, which JSON cannot carry`);
  }
  if (Array.isArray(value)) return value.map((item, i) => cloneJson(item, what, `${field}[${i}]`, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === "__proto__") continue;
      out[key] = cloneJson(value[key], what, field ? `${field}.${key}` : key, depth + 1);
    }
    return out;
  }
  throw new InvalidAnswerError(field, `toolnexus: invalid ${what}: "${field}" is ${typeName(value)}, which JSON cannot carry`);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
