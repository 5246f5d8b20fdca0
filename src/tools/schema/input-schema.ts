// A tool's input schema: the JSON Schema declared to the model, and the check run on the model's arguments
// before the tool sees them. Plain JSON Schema is checked by the small validator below; a valibot schema or
// any Standard Schema v1 is checked by its own `~standard.validate` and declared through a JSON Schema
// conversion (valibot: valibot.ts beside this file; others: Standard JSON Schema or a `toJSONSchema()` method).
import { isPlainObject, typeName } from "../../_internal/json";
import { ConfigError } from "../../errors";
import type { JSONSchema, StandardSchemaV1, TypedJSONSchema } from "../../types";

export type { InferSchema, StandardSchemaV1, ToolInputSchema, TypedJSONSchema } from "../../types";
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
export const emptyObjectSchema = (): JSONSchema => ({ type: "object", properties: {} });

/** Compiles `input` for the tool `owner` (used in messages). Throws ConfigError for a schema it cannot declare. */
export function toolSchema(input: unknown, owner: string, fallback: () => JSONSchema = emptyObjectSchema): ToolSchema {
  if (input === undefined) input = fallback();
  if (isStandardSchema(input)) return standardSchema(input, owner);
  if (!isPlainObject(input) || input.type !== "object") {
    throw new ConfigError(
      "inputSchema",
      `toolnexus: tool "${owner}": inputSchema must be a JSON Schema object with type "object", or a valibot / Standard Schema; got ${describe(input)}`,
    );
  }
  const json = input as JSONSchema;
  return {
    json,
    async check(args) {
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
  const std = schema["~standard"] as StandardSchemaV1["~standard"] & {
    jsonSchema?: { input?: (o: { target: string }) => unknown };
  };
  const methods = schema as { toJSONSchema?: () => unknown; toJsonSchema?: () => unknown };
  let converted: unknown;
  try {
    if (typeof std.jsonSchema?.input === "function") converted = std.jsonSchema.input({ target: "draft-07" });
    else if (std.vendor === "valibot") converted = valibotToJsonSchema(schema as unknown as Record<string, unknown>);
    else if (typeof methods.toJSONSchema === "function") converted = methods.toJSONSchema();
    else if (typeof methods.toJsonSchema === "function") converted = methods.toJsonSchema();
    else {
      throw new ConfigError(
        "inputSchema",
        `toolnexus: tool "${owner}": the ${std.vendor} schema offers no JSON Schema conversion (Standard JSON Schema "~standard.jsonSchema" or toJSONSchema()), so it cannot be declared to the model — pass a JSON Schema object or a valibot schema`,
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      "inputSchema",
      `toolnexus: tool "${owner}": cannot convert the ${std.vendor} inputSchema to JSON Schema: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  if (!isPlainObject(converted) || converted.type !== "object") {
    throw new ConfigError(
      "inputSchema",
      `toolnexus: tool "${owner}": inputSchema must describe an object (tool arguments are a JSON object); its JSON Schema is ${describe(converted)}`,
    );
  }
  const { $schema: _, ...json } = converted;
  return json as JSONSchema;
}
