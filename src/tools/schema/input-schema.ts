// A tool's input schema: the JSON Schema declared to the model, and the check run on the model's arguments
// before the tool sees them. Plain JSON Schema is checked by the small validator below; a valibot schema or
// any Standard Schema v1 is checked by its own `~standard.validate` and declared through a JSON Schema
// conversion (valibot: valibot.ts beside this file; others: Standard JSON Schema or a `toJSONSchema()` method).
import { isPlainObject, typeName } from "../../_internal/json";
import type { JSONSchema } from "../../types";
import { formatPath, validateJsonSchema } from "./json-schema";
import { valibotToJsonSchema } from "./valibot";

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
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly StandardPathSegment[] | undefined;
      }[];
    };

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
    throw new TypeError(
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
      throw new TypeError(
        `toolnexus: tool "${owner}": the ${std.vendor} schema offers no JSON Schema conversion (Standard JSON Schema "~standard.jsonSchema" or toJSONSchema()), so it cannot be declared to the model — pass a JSON Schema object or a valibot schema`,
      );
    }
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith("toolnexus:")) throw error;
    throw new TypeError(
      `toolnexus: tool "${owner}": cannot convert the ${std.vendor} inputSchema to JSON Schema: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  if (!isPlainObject(converted) || converted.type !== "object") {
    throw new TypeError(
      `toolnexus: tool "${owner}": inputSchema must describe an object (tool arguments are a JSON object); its JSON Schema is ${describe(converted)}`,
    );
  }
  const { $schema: _, ...json } = converted;
  return json as JSONSchema;
}
