// A tool's input schema: the JSON Schema declared to the model, and the check run on the model's arguments
// before the tool sees them. Plain JSON Schema is checked by the small validator below; a valibot schema or
// any Standard Schema v1 is checked by its own `~standard.validate` and declared through a JSON Schema
// conversion (valibot: @valibot/to-json-schema; others: Standard JSON Schema or a `toJSONSchema()` method).
import { toJsonSchema } from "@valibot/to-json-schema";
import type { BaseIssue, BaseSchema } from "valibot";
import { typeName } from "./answer";
import { isPlainObject } from "./parse";
import type { JSONSchema } from "./types";

/** The Standard Schema v1 interface (standardschema.dev), as much of it as a tool needs. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };
type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly StandardPathSegment[] | undefined }[] };

export type ToolInputSchema = JSONSchema | StandardSchemaV1;

/** The arguments to run the tool with, or why they were refused (`"<path>: <problem>; …"`). */
export type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; problems: string };

export interface ToolSchema {
  json: JSONSchema;
  check(args: Record<string, unknown>): Checked | Promise<Checked>;
}

/** The default input schema: an object with no properties (a fresh copy each time, so no two tools share one). */
export const emptyObjectSchema = (): JSONSchema => ({ type: "object", properties: {}, additionalProperties: false });

/** Compiles `input` for the tool `owner` (used in messages). Throws TypeError for a schema it cannot declare. */
export function toolSchema(input: unknown, owner: string, fallback: () => JSONSchema = emptyObjectSchema): ToolSchema {
  if (input === undefined) input = fallback();
  if (isStandardSchema(input)) return standardSchema(input, owner);
  if (!isPlainObject(input) || input.type !== "object") {
    throw new TypeError(`toolnexus: tool "${owner}": inputSchema must be a JSON Schema object with type "object", or a valibot / Standard Schema; got ${describe(input)}`);
  }
  const json = input as JSONSchema;
  return {
    json,
    check(args) {
      const problems = validateJsonSchema(json, args);
      return problems.length === 0 ? { ok: true, value: args } : { ok: false, problems: problems.join("; ") };
    },
  };
}

function describe(input: unknown): string {
  return isPlainObject(input) ? `an object with type ${JSON.stringify(input.type) ?? "missing"}` : typeName(input);
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const std = (value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
  return (typeof value === "object" || typeof value === "function") && typeof std?.validate === "function";
}

function standardSchema(schema: StandardSchemaV1, owner: string): ToolSchema {
  const json = declaredSchema(schema, owner);
  return {
    json,
    async check(args) {
      const result = await schema["~standard"].validate(args);
      if (!result.issues) return { ok: true, value: result.value as Record<string, unknown> };
      const problems = result.issues.map((i) => `${formatPath(i.path ?? [])}: ${i.message}`);
      return { ok: false, problems: problems.join("; ") };
    },
  };
}

/** The JSON Schema a Standard Schema declares its input as. */
function declaredSchema(schema: StandardSchemaV1, owner: string): JSONSchema {
  const std = schema["~standard"] as StandardSchemaV1["~standard"] & { jsonSchema?: { input?: (o: { target: string }) => unknown } };
  const methods = schema as { toJSONSchema?: () => unknown; toJsonSchema?: () => unknown };
  let converted: unknown;
  try {
    if (typeof std.jsonSchema?.input === "function") converted = std.jsonSchema.input({ target: "draft-07" });
    else if (std.vendor === "valibot") converted = toJsonSchema(schema as unknown as BaseSchema<unknown, unknown, BaseIssue<unknown>>, { typeMode: "input", errorMode: "ignore" });
    else if (typeof methods.toJSONSchema === "function") converted = methods.toJSONSchema();
    else if (typeof methods.toJsonSchema === "function") converted = methods.toJsonSchema();
    else {
      throw new TypeError(
        `toolnexus: tool "${owner}": the ${std.vendor} schema offers no JSON Schema conversion (Standard JSON Schema "~standard.jsonSchema" or toJSONSchema()), so it cannot be declared to the model — pass a JSON Schema object or a valibot schema`,
      );
    }
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith("toolnexus:")) throw error;
    throw new TypeError(`toolnexus: tool "${owner}": cannot convert the ${std.vendor} inputSchema to JSON Schema: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  if (!isPlainObject(converted) || converted.type !== "object") {
    throw new TypeError(`toolnexus: tool "${owner}": inputSchema must describe an object (tool arguments are a JSON object); its JSON Schema is ${describe(converted)}`);
  }
  const { $schema: _, ...json } = converted;
  return json as JSONSchema;
}

function formatPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

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
