// A tool's input schema: the JSON Schema declared to the model, and the check run on the model's arguments
// before the tool sees them. Plain JSON Schema is checked by the small validator below; a valibot schema or
// any Standard Schema v1 is checked by its own `~standard.validate` and declared through a JSON Schema
// conversion (valibot: valibot.ts beside this file; others: Standard JSON Schema or a `toJSONSchema()` method).
import { isPlainObject } from "../../_internal/json";
import { ConfigError, errorMessage, shown } from "../../errors";
import type { JSONSchema } from "../../types";
import type { StandardSchemaV1, TypedJSONSchema } from "../types";

export type { InferSchema, StandardSchemaV1, ToolInputSchema, TypedJSONSchema } from "../types";
import { formatPath, validateJsonSchema } from "./json-schema";
import { valibotToJsonSchema } from "./valibot";

/**
 * Types a plain JSON Schema: `jsonSchema<{ city: string }>({ type: "object", … })` lets `execute` (or a
 * run's `output`) see `{ city: string }`, as a valibot or zod schema would. Returns `schema` itself; the
 * type is the caller's word — the schema still checks the values at run time.
 */
/* @__NO_SIDE_EFFECTS__ */
export function jsonSchema<T>(schema: JSONSchema): TypedJSONSchema<T> {
  return schema as TypedJSONSchema<T>;
}

/** The arguments to run the tool with, or why they were refused (`"<path>: <problem>; …"`). */
export type Checked = { ok: true; value: Record<string, unknown> } | { ok: false; problems: string };

export interface ToolSchema {
  json: JSONSchema;
  check(args: Record<string, unknown>): Checked | Promise<Checked>;
}

/** The default input schema: any object (a fresh copy each time, so no two tools share one). */
const emptyObjectSchema = (): JSONSchema => ({ type: "object", properties: {} });

/** Compiles `input` for the tool `owner` (used in messages). Throws ConfigError for a schema it cannot declare. */
export function toolSchema(input: unknown, owner: string, fallback: () => JSONSchema = emptyObjectSchema): ToolSchema {
  if (input === undefined) input = fallback();
  const refuse = (problem: string, cause?: unknown) =>
    new ConfigError("inputSchema", `toolnexus: tool "${owner}": ${problem}`, { cause });
  const std = isStandardSchema(input) ? input["~standard"] : undefined;
  const json = std ? declaredSchema(input as StandardSchemaV1, refuse) : input;
  if (!isPlainObject(json) || json.type !== "object") {
    const got = isPlainObject(json) ? `type ${shown(json.type)}` : shown(json);
    throw refuse(`inputSchema must describe an object (JSON Schema type "object"), got ${got}`);
  }
  // a converted schema's `$schema` is left out of the declaration
  const { $schema: _, ...declared } = json;
  return {
    json: (std ? declared : json) as JSONSchema,
    async check(args) {
      let problems: string[] = [];
      let value = args;
      if (std) {
        const result = await std.validate(args);
        if (result.issues) problems = result.issues.map((i) => `${formatPath(i.path ?? [])}: ${i.message}`);
        else value = result.value as Record<string, unknown>;
      } else problems = validateJsonSchema(json, args);
      return problems.length ? { ok: false, problems: problems.join("; ") } : { ok: true, value };
    },
  };
}

/** A Standard Schema v1: anything with a `~standard.validate` function (a primitive has none). */
const isStandardSchema = (value: unknown): value is StandardSchemaV1 =>
  typeof (value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"]?.validate === "function";

/** The JSON Schema a Standard Schema declares its input as. */
function declaredSchema(schema: StandardSchemaV1, refuse: (problem: string, cause?: unknown) => Error): unknown {
  const std = schema["~standard"] as StandardSchemaV1["~standard"] & {
    jsonSchema?: { input?: (o: { target: string }) => unknown };
  };
  const methods = schema as { toJSONSchema?: () => unknown; toJsonSchema?: () => unknown };
  const method = methods.toJSONSchema ?? methods.toJsonSchema;
  let converted: unknown;
  try {
    if (typeof std.jsonSchema?.input === "function") converted = std.jsonSchema.input({ target: "draft-07" });
    else if (std.vendor === "valibot") converted = valibotToJsonSchema(schema as unknown as Record<string, unknown>);
    else if (typeof method === "function") converted = method.call(schema);
  } catch (error) {
    throw refuse(`cannot convert the ${std.vendor} inputSchema to JSON Schema: ${errorMessage(error)}`, error);
  }
  if (converted === undefined)
    throw refuse(
      `the ${std.vendor} schema offers no JSON Schema conversion (~standard.jsonSchema or toJSONSchema()) — pass a JSON Schema or a valibot schema`,
    );
  return converted;
}
