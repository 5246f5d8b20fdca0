// Schemas from other libraries for the tool tests: valibot itself, and hand-made Standard Schema v1 objects
// standing in for other vendors (with and without a JSON Schema conversion).
import * as v from "valibot";

export const valibotCity = v.object({
  city: v.pipe(v.string(), v.minLength(2, "too short")),
  days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
});

export const valibotTrimmed = v.object({ name: v.pipe(v.string(), v.trim(), v.toUpperCase()) });

export const valibotString = v.string();

type Result = { value: unknown } | { issues: { message: string; path?: (PropertyKey | { key: PropertyKey })[] }[] };

function standard(
  vendor: string,
  validate: (value: unknown) => Result | Promise<Result>,
  extra: Record<string, unknown> = {},
) {
  return { "~standard": { version: 1 as const, vendor, validate, ...extra } };
}

const needsQ = (value: unknown): Result => {
  const q = (value as { q?: unknown }).q;
  return typeof q === "string"
    ? { value: { q } }
    : { issues: [{ message: "q must be a string", path: [{ key: "q" }] }] };
};

/** Standard JSON Schema (`~standard.jsonSchema.input`), with an async validate. */
export const withStandardJsonSchema = standard("acme", async (value) => needsQ(value), {
  jsonSchema: {
    input: () => ({
      $schema: "https://json-schema.org/draft-07/schema",
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    }),
    output: () => ({ type: "object" }),
  },
});

/** A vendor whose schema object offers `toJSONSchema()`. */
export const withToJSONSchema = {
  ...standard("zeta", needsQ),
  toJSONSchema: () => ({ type: "object", properties: { q: { type: "string" } } }),
};

/** A vendor with no JSON Schema conversion at all. */
export const withoutConversion = standard("opaque", needsQ);

/** A vendor whose conversion throws. */
export const brokenConversion = {
  ...standard("fragile", needsQ),
  toJSONSchema: () => {
    throw new Error("recursive types are not supported");
  },
};

/** The exact @valibot/to-json-schema conversion, handed over through Standard JSON Schema. */
export { toStandardJsonSchema } from "@valibot/to-json-schema";
