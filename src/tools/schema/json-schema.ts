// The small JSON Schema validator that checks a model's tool arguments before the tool runs. Keywords:
// type (incl. integer and type arrays), properties, required, additionalProperties, enum, const, items,
// minimum/maximum (+ exclusive), minLength/maxLength, minItems/maxItems, pattern. Unknown keywords are
// ignored.
import { isPlainObject, typeName } from "../../_internal/json";

type Path = (string | number)[];

/** Every way `value` breaks `schema`, as `"<path>: <problem>"` strings. Unknown keywords are ignored. */
export function validateJsonSchema(schema: unknown, value: unknown): string[] {
  const problems: string[] = [];
  check(schema, value, [], problems);
  return problems;
}

/** `[keyword, operator in the message, true when the value breaks the bound]` */
const NUMBER_BOUNDS: [string, string, (value: number, limit: number) => boolean][] = [
  ["minimum", ">=", (v, l) => v < l],
  ["maximum", "<=", (v, l) => v > l],
  ["exclusiveMinimum", ">", (v, l) => v <= l],
  ["exclusiveMaximum", "<", (v, l) => v >= l],
];

function check(schema: unknown, value: unknown, path: Path, out: string[]): void {
  if (!isPlainObject(schema)) return;
  const fail = (problem: string, at = path) => void out.push(`${formatPath(at)}: ${problem}`);
  const typeProblem = checkType(schema.type, value);
  if (typeProblem) return fail(typeProblem);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, value))) {
    fail(`must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  }
  if ("const" in schema && !sameJson(schema.const, value)) fail(`must be ${JSON.stringify(schema.const)}`);
  if (typeof value === "number") {
    for (const [keyword, op, breaks] of NUMBER_BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number" && breaks(value, limit)) fail(`must be ${op} ${limit}`);
    }
  }
  if (typeof value === "string") {
    checkSize(schema.minLength, schema.maxLength, [...value].length, "character", fail);
    if (typeof schema.pattern === "string" && !matches(schema.pattern, value))
      fail(`must match the pattern ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    checkSize(schema.minItems, schema.maxItems, value.length, "item", fail);
    const items = schema.items;
    value.forEach((item, i) => check(Array.isArray(items) ? items[i] : items, item, [...path, i], out));
  }
  if (isPlainObject(value)) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required)
        if (typeof key === "string" && (!Object.hasOwn(value, key) || value[key] === undefined))
          fail("is required", [...path, key]);
    }
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      if (Object.hasOwn(properties, key)) check(properties[key], child, [...path, key], out);
      else if (schema.additionalProperties === false) fail("is not an allowed property", [...path, key]);
      else check(schema.additionalProperties, child, [...path, key], out);
    }
  }
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  object: isPlainObject,
  array: Array.isArray,
  null: (v) => v === null,
};

function checkType(type: unknown, value: unknown): string | undefined {
  const types = (Array.isArray(type) ? type : [type]).filter(
    (t): t is string => typeof t === "string" && t in TYPE_CHECKS,
  );
  if (types.length === 0 || types.some((t) => TYPE_CHECKS[t]!(value))) return undefined;
  return `expected ${types.join(" or ")}, got ${typeName(value)}`;
}

function checkSize(min: unknown, max: unknown, size: number, unit: string, fail: (problem: string) => void): void {
  const count = (n: number) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (typeof min === "number" && size < min) fail(`must have at least ${count(min)}`);
  if (typeof max === "number" && size > max) fail(`must have at most ${count(max)}`);
}

/** An unparsable pattern constrains nothing (like any keyword this validator does not understand). */
function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

export function formatPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}
