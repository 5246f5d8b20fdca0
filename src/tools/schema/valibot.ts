// A small valibot → JSON Schema converter for tool declarations. It covers the schemas tool inputs use
// (objects, primitives, arrays, tuples, records, picklists, enums, literals, unions, optional/nullable
// wrappers and the usual pipe actions); anything else is declared permissively (`{}`). That is safe
// because the arguments are still checked by valibot itself before the tool runs — the declaration
// only guides the model. For a byte-exact conversion pass `toStandardJsonSchema(schema)` from
// @valibot/to-json-schema instead; it is read through Standard JSON Schema.
type Node = { type?: string; [key: string]: unknown };
type Json = Record<string, unknown>;

const OPTIONAL = new Set(["optional", "exact_optional", "nullish", "undefinedable"]);
const NULLABLE = new Set(["nullable", "nullish"]);

const ACTIONS: Record<string, (json: Json, requirement: unknown) => void> = {
  min_length: (j, r) => (j[j.type === "array" ? "minItems" : "minLength"] = r),
  max_length: (j, r) => (j[j.type === "array" ? "maxItems" : "maxLength"] = r),
  length: (j, r) => {
    j[j.type === "array" ? "minItems" : "minLength"] = r;
    j[j.type === "array" ? "maxItems" : "maxLength"] = r;
  },
  min_value: (j, r) => (j.minimum = r),
  max_value: (j, r) => (j.maximum = r),
  integer: (j) => (j.type = "integer"),
  regex: (j, r) => (j.pattern = (r as RegExp).source),
  email: (j) => (j.format = "email"),
  url: (j) => (j.format = "uri"),
  uuid: (j) => (j.format = "uuid"),
  iso_date: (j) => (j.format = "date"),
  iso_timestamp: (j) => (j.format = "date-time"),
};

function pipe(node: Node, json: Json): Json {
  for (const action of (node.pipe as Node[] | undefined)?.slice(1) ?? []) {
    if (action.type === "description") json.description = action.description;
    else ACTIONS[action.type ?? ""]?.(json, action.requirement);
  }
  return json;
}

/** The JSON Schema of a valibot schema's input. */
export function valibotToJsonSchema(node: Node): Json {
  const t = node.type ?? "";
  if (OPTIONAL.has(t) || NULLABLE.has(t)) {
    const inner = valibotToJsonSchema(node.wrapped as Node);
    if ("default" in node && typeof node.default !== "function") inner.default = node.default;
    return NULLABLE.has(t) ? pipe(node, { anyOf: [inner, { type: "null" }] }) : inner;
  }
  if (t.endsWith("object")) {
    const properties: Json = {};
    const required: string[] = [];
    for (const [key, child] of Object.entries((node.entries ?? {}) as Record<string, Node>)) {
      properties[key] = valibotToJsonSchema(child);
      if (!OPTIONAL.has(child.type ?? "")) required.push(key);
    }
    const json: Json = { type: "object", properties };
    if (required.length) json.required = required;
    if (t === "strict_object") json.additionalProperties = false;
    if (t === "object_with_rest") json.additionalProperties = valibotToJsonSchema(node.rest as Node);
    return pipe(node, json);
  }
  const simple: Record<string, () => Json> = {
    string: () => ({ type: "string" }),
    number: () => ({ type: "number" }),
    boolean: () => ({ type: "boolean" }),
    null: () => ({ type: "null" }),
    array: () => ({ type: "array", items: valibotToJsonSchema(node.item as Node) }),
    tuple: () => ({ type: "array", items: (node.items as Node[]).map(valibotToJsonSchema) }),
    record: () => ({ type: "object", additionalProperties: valibotToJsonSchema(node.value as Node) }),
    picklist: () => ({ enum: node.options }),
    enum: () => ({ enum: node.options }),
    literal: () => ({ const: node.literal }),
    union: () => ({ anyOf: (node.options as Node[]).map(valibotToJsonSchema) }),
    variant: () => ({ anyOf: (node.options as Node[]).map(valibotToJsonSchema) }),
  };
  return pipe(node, simple[t]?.() ?? {});
}
