// A small valibot → JSON Schema converter for tool declarations. It covers the schemas tool inputs use
// (objects, primitives, arrays, tuples, records, picklists, enums, literals, unions, optional/nullable
// wrappers and the usual pipe actions); anything else is declared permissively (`{}`). That is safe
// because the arguments are still checked by valibot itself before the tool runs — the declaration
// only guides the model. For a byte-exact conversion pass `toStandardJsonSchema(schema)` from
// @valibot/to-json-schema instead; it is read through Standard JSON Schema.
type Node = { type?: string; [key: string]: unknown };
type Json = Record<string, unknown>;

const OPTIONAL = ["optional", "exact_optional", "nullish", "undefinedable"];
const NULLABLE = ["nullable", "nullish"];
const FORMATS: Record<string, string> = {
  email: "email",
  url: "uri",
  uuid: "uuid",
  iso_date: "date",
  iso_timestamp: "date-time",
};

/** `json` with the pipe actions of `node` that JSON Schema can say (the first pipe item is the schema). */
function pipe(node: Node, json: Json): Json {
  for (const { type, requirement, description } of (node.pipe as Node[] | undefined)?.slice(1) ?? []) {
    const unit = json.type === "array" ? "Items" : "Length";
    if (type === "min_length" || type === "length") json[`min${unit}`] = requirement;
    if (type === "max_length" || type === "length") json[`max${unit}`] = requirement;
    if (type === "min_value") json.minimum = requirement;
    if (type === "max_value") json.maximum = requirement;
    if (type === "integer") json.type = "integer";
    if (type === "regex") json.pattern = (requirement as RegExp).source;
    if (type === "description") json.description = description;
    if (FORMATS[type!]) json.format = FORMATS[type!];
  }
  return json;
}

/** The JSON Schema of a valibot schema's input. */
export function valibotToJsonSchema(node: Node): Json {
  const t = node.type ?? "";
  const convert = (child: unknown) => valibotToJsonSchema(child as Node);
  let json: Json = {};
  if (node.wrapped) {
    // optional, nullable, nullish, non_optional, …: the wrapped schema, with the wrapper's default
    json = convert(node.wrapped);
    const fallback = node.default;
    if (fallback !== undefined && typeof fallback !== "function") json.default = fallback;
    if (NULLABLE.includes(t)) json = { anyOf: [json, { type: "null" }] };
  } else if (t.includes("object")) {
    const entries = Object.entries((node.entries ?? {}) as Record<string, Node>);
    const required = entries.filter(([, child]) => !OPTIONAL.includes(child.type ?? "")).map(([key]) => key);
    json = { type: "object", properties: Object.fromEntries(entries.map(([key, child]) => [key, convert(child)])) };
    if (required.length) json.required = required;
    if (t === "strict_object") json.additionalProperties = false;
    if (t === "object_with_rest") json.additionalProperties = convert(node.rest);
  } else if (["string", "number", "boolean", "null"].includes(t)) json = { type: t };
  else if (t === "array") json = { type: "array", items: convert(node.item) };
  else if (t === "tuple") json = { type: "array", items: (node.items as Node[]).map(convert) };
  else if (t === "record") json = { type: "object", additionalProperties: convert(node.value) };
  else if (t === "picklist" || t === "enum") json = { enum: node.options };
  else if (t === "literal") json = { const: node.literal };
  else if (t === "union" || t === "variant") json = { anyOf: (node.options as Node[]).map(convert) };
  return pipe(node, json);
}
