// The small JSON Schema validator that checks a model's tool arguments before the tool runs (loaded on
// the first check). Keywords: type (incl. integer and type arrays), properties, required,
// additionalProperties, enum, const, items, minimum/maximum (+ exclusive), minLength/maxLength,
// minItems/maxItems, pattern. Unknown keywords are ignored.
import { isPlainObject } from "./json";
import { formatPath } from "./schema";
import { typeName } from "./answer";

type Schema = Record<string, unknown>;

/** Every way `value` breaks `schema`, as `"<path>: <problem>"` strings. Unknown keywords are ignored. */
export function validateJsonSchema(schema: unknown, value: unknown, path: (string | number)[] = []): string[] {
  if (!isPlainObject(schema)) return [];
  const at = (problem: string, extra?: string | number) => `${formatPath(extra === undefined ? path : [...path, extra])}: ${problem}`;
  const typeProblem = checkType(schema.type, value);
  if (typeProblem) return [at(typeProblem)];
  const problems: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, value))) {
    problems.push(at(`must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`));
  }
  if ("const" in schema && !sameJson(schema.const, value)) problems.push(at(`must be ${JSON.stringify(schema.const)}`));
  if (typeof value === "number") problems.push(...numberProblems(schema, value).map((p) => at(p)));
  if (typeof value === "string") problems.push(...stringProblems(schema, value).map((p) => at(p)));
  if (Array.isArray(value)) {
    problems.push(...sizeProblems(schema.minItems, schema.maxItems, value.length, "item").map((p) => at(p)));
    const items = schema.items;
    value.forEach((item, i) => problems.push(...validateJsonSchema(Array.isArray(items) ? items[i] : items, item, [...path, i])));
  }
  if (isPlainObject(value)) problems.push(...objectProblems(schema, value, path));
  return problems;
}

function objectProblems(schema: Schema, value: Record<string, unknown>, path: (string | number)[]): string[] {
  const problems: string[] = [];
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === "string" && (!Object.prototype.hasOwnProperty.call(value, key) || value[key] === undefined)) problems.push(`${formatPath([...path, key])}: is required`);
    }
  }
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    if (Object.prototype.hasOwnProperty.call(properties, key)) problems.push(...validateJsonSchema(properties[key], child, [...path, key]));
    else if (schema.additionalProperties === false) problems.push(`${formatPath([...path, key])}: is not an allowed property`);
    else problems.push(...validateJsonSchema(schema.additionalProperties, child, [...path, key]));
  }
  return problems;
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
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string" && t in TYPE_CHECKS);
  if (types.length === 0 || types.some((t) => TYPE_CHECKS[t]!(value))) return undefined;
  return `expected ${types.join(" or ")}, got ${typeName(value)}`;
}

function numberProblems(s: Schema, n: number): string[] {
  const out: string[] = [];
  if (typeof s.minimum === "number" && n < s.minimum) out.push(`must be >= ${s.minimum}`);
  if (typeof s.maximum === "number" && n > s.maximum) out.push(`must be <= ${s.maximum}`);
  if (typeof s.exclusiveMinimum === "number" && n <= s.exclusiveMinimum) out.push(`must be > ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number" && n >= s.exclusiveMaximum) out.push(`must be < ${s.exclusiveMaximum}`);
  return out;
}

function stringProblems(s: Schema, text: string): string[] {
  const out = sizeProblems(s.minLength, s.maxLength, [...text].length, "character");
  if (typeof s.pattern === "string" && !matches(s.pattern, text)) out.push(`must match the pattern ${s.pattern}`);
  return out;
}

function sizeProblems(min: unknown, max: unknown, size: number, unit: string): string[] {
  const out: string[] = [];
  if (typeof min === "number" && size < min) out.push(`must have at least ${min} ${unit}${min === 1 ? "" : "s"}`);
  if (typeof max === "number" && size > max) out.push(`must have at most ${max} ${unit}${max === 1 ? "" : "s"}`);
  return out;
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
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}
