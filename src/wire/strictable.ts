// OpenAI's strict mode (both OpenAI wires: Chat Completions' `response_format` and the Responses API's
// `text.format`) accepts a subset of JSON Schema and refuses anything else with a 400 before any output.
// The loop asks for it when the output schema's root is closed — an object that sets
// `additionalProperties: false` and requires every property (`v.strictObject`, `z.strictObject`) — so an
// open object (`v.object`, `z.object`) or an optional field is sent without `strict` and costs nothing.
// What else the subset forbids (a nested open object, `default`, `minLength`, `$defs` below the root, …)
// OpenAI refuses with a 400 naming the output format: the call is sent once more without `strict`, as are
// the run's later calls. Either way the answer is validated against the schema when it comes back.
import { isPlainObject } from "../_internal/json";
import { isToolnexusError, type LlmHttpError } from "../errors";

/** Whether strict mode is asked for `schema`: a closed object at the root (see above). */
export function strictable(schema: unknown): boolean {
  if (!isPlainObject(schema) || schema.type !== "object" || schema.additionalProperties !== false) return false;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.keys(isPlainObject(schema.properties) ? schema.properties : {}).every((p) => required.includes(p));
}

/**
 * True for OpenAI's 400 refusing the output schema, read from its typed fields, never its words: the
 * Responses API's `code: "invalid_json_schema"` (on `text.format.schema`), Chat Completions' `param:
 * "response_format"` (its `code` is null there).
 */
export function refusedStrict(error: unknown): boolean {
  if (!isToolnexusError(error) || error.code !== "llm_http" || (error as LlmHttpError).status !== 400) return false;
  try {
    const { code, param } = JSON.parse((error as LlmHttpError).body).error;
    return code === "invalid_json_schema" || param === "response_format";
  } catch {
    return false;
  }
}
