// Which output schemas OpenAI's strict mode accepts, for both OpenAI wires (Chat Completions'
// `response_format` and the Responses API's `text.format`). Strict mode accepts a subset of JSON Schema
// and refuses anything else with a 400 before any output, so a schema outside the subset is sent without
// `strict` and its answer is validated here all the same. The subset, as OpenAI documents it:
// - the root is an object (not an `anyOf`); definitions (`$defs`, `definitions`) sit at the root only;
// - every object sets `additionalProperties: false` and lists every property in `required` (an optional
//   field is written as a required one whose type allows `null`);
// - the keywords are the supported ones: types, `enum`, `const`, `anyOf`, `$ref`; `pattern` and `format`
//   (of the listed formats) on strings; `minimum`, `maximum`, their exclusive forms and `multipleOf` on
//   numbers; `minItems`, `maxItems` on arrays; `title`, `description` anywhere — no `default`, `allOf`,
//   `not`, `oneOf`, `if`, `patternProperties`, `minLength`, …;
// - at most 10 levels of nested objects and 5000 properties, at most 1000 enum values.
import { isPlainObject } from "../_internal/json";

const KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "title",
  "description",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
const ROOT_KEYWORDS = new Set(["$defs", "definitions", "$schema"]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const MAX_NESTING = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM = 1000;

const MAX_NODES = 100_000; // a schema that refers to itself as a JS object never ends

interface Walk {
  properties: number;
  nodes: number;
}

/** Whether OpenAI's strict mode accepts `schema` as an output schema (see the rules above). */
export function strictable(schema: unknown): boolean {
  if (!isPlainObject(schema) || schema.type !== "object") return false;
  const walk: Walk = { properties: 0, nodes: 0 };
  const defs = [schema.$defs, schema.definitions].flatMap((d) => (isPlainObject(d) ? Object.values(d) : []));
  if (schema.$defs !== undefined && !isPlainObject(schema.$defs)) return false;
  if (schema.definitions !== undefined && !isPlainObject(schema.definitions)) return false;
  return nodeOk(schema, 0, walk, true) && defs.every((d) => nodeOk(d, 0, walk));
}

function nodeOk(node: unknown, nesting: number, walk: Walk, root = false): boolean {
  walk.nodes++;
  if (!isPlainObject(node) || walk.nodes > MAX_NODES) return false;
  for (const key of Object.keys(node)) if (!KEYWORDS.has(key) && !(root && ROOT_KEYWORDS.has(key))) return false;
  if (typeof node.format === "string" && !FORMATS.has(node.format)) return false;
  if (Array.isArray(node.enum) && node.enum.length > MAX_ENUM) return false;
  if (node.anyOf !== undefined && !(Array.isArray(node.anyOf) && node.anyOf.every((n) => nodeOk(n, nesting, walk))))
    return false;
  if (node.items !== undefined && !nodeOk(node.items, nesting, walk)) return false;
  const isObject = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object"));
  if (!isObject && node.properties === undefined) return node.additionalProperties === undefined;
  return objectOk(node, nesting + 1, walk);
}

function objectOk(node: Record<string, unknown>, nesting: number, walk: Walk): boolean {
  if (nesting > MAX_NESTING || node.additionalProperties !== false) return false;
  const properties = node.properties ?? {};
  if (!isPlainObject(properties)) return false;
  const names = Object.keys(properties);
  walk.properties += names.length;
  if (walk.properties > MAX_PROPERTIES) return false;
  const required = Array.isArray(node.required) ? node.required : [];
  if (!names.every((name) => required.includes(name))) return false;
  return names.every((name) => nodeOk(properties[name], nesting, walk));
}
