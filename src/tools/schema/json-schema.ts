// The small JSON Schema validator that checks a model's tool arguments before the tool runs. Keywords:
// type (incl. integer and type arrays), properties, required, additionalProperties, enum, const, items,
// minimum/maximum (+ exclusive), minLength/maxLength, minItems/maxItems, pattern. Unknown keywords are
// ignored.
import { canonical, isPlainObject, typeName } from "../../_internal/json";

/** Every way `value` breaks `schema`, as `"<path>: <problem>"` strings. Unknown keywords are ignored. */
export function validateJsonSchema(schema: unknown, value: unknown): string[] {
  const problems: string[] = [];
  check(schema, value, "", problems);
  return problems;
}

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

function isType(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return Number.isFinite(value);
    case "object":
      return isPlainObject(value);
    default:
      return typeName(value) === type;
  }
}

/** Checks `value`, found at `path` (`""` at the root), against `schema`. */
function check(schema: unknown, value: unknown, path: string, out: string[]): void {
  if (!isPlainObject(schema)) return;
  const fail = (problem: string, at = path) => void out.push(`${at || "(root)"}: ${problem}`);
  // a bound that is not a number is NaN, which no value breaks
  const limit = (keyword: string) => (typeof schema[keyword] === "number" ? (schema[keyword] as number) : NaN);
  const types = [schema.type].flat().filter((t): t is string => TYPES.includes(t as string));
  if (types.length && !types.some((t) => isType(t, value)))
    return fail(`expected ${types.join(" or ")}, got ${typeName(value)}`);
  const same = (expected: unknown) => canonical(expected) === canonical(value);
  if (Array.isArray(schema.enum) && !schema.enum.some(same))
    fail(`must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  if ("const" in schema && !same(schema.const)) fail(`must be ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    const [min, max, above, below] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].map(limit);
    if (value < min!) fail(`must be >= ${min}`);
    if (value > max!) fail(`must be <= ${max}`);
    if (value <= above!) fail(`must be > ${above}`);
    if (value >= below!) fail(`must be < ${below}`);
  }
  const text = typeof value === "string";
  if (text || Array.isArray(value)) {
    const [size, unit, keyword] = text ? [[...value].length, "character", "Length"] : [value.length, "item", "Items"];
    const count = (n: number) => `${n} ${unit}${n === 1 ? "" : "s"}`;
    const min = limit(`min${keyword}`);
    const max = limit(`max${keyword}`);
    if (size < min) fail(`must have at least ${count(min)}`);
    if (size > max) fail(`must have at most ${count(max)}`);
  }
  if (text && typeof schema.pattern === "string" && !matches(schema.pattern, value))
    fail(`must match the pattern ${schema.pattern}`);
  if (Array.isArray(value)) {
    const { items } = schema;
    value.forEach((item, i) => check(Array.isArray(items) ? items[i] : items, item, join(path, i), out));
  }
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    for (const key of Array.isArray(schema.required) ? schema.required : [])
      if (typeof key === "string" && (!Object.hasOwn(value, key) || value[key] === undefined))
        fail("is required", join(path, key));
    for (const [key, child] of Object.entries(value)) {
      const at = join(path, key);
      if (child === undefined) continue;
      if (Object.hasOwn(properties, key)) check(properties[key], child, at, out);
      else if (schema.additionalProperties === false) fail("is not an allowed property", at);
      else check(schema.additionalProperties, child, at, out);
    }
  }
}

/** An unparsable pattern constrains nothing (like any keyword this validator does not understand). */
function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

/** `path` with `key` appended: `a.b[0]`. */
function join(path: string, key: PropertyKey): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${String(key)}` : String(key);
}

/** A Standard Schema issue's path as this validator writes one. */
export const formatPath = (path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string =>
  path.reduce<string>((out, segment) => join(out, typeof segment === "object" ? segment.key : segment), "") || "(root)";
