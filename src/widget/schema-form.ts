// A form from a flat JSON Schema (an MCP elicitation's requestedSchema, an `input` Request's data.schema):
// string (format email, uri, date, date-time, time; enum / oneOf of const+title; min/maxLength), number and
// integer (minimum, maximum), boolean; `required`, and title / description as the label and its hint. The
// browser checks required fields, bounds and formats before the form submits.
import { h, uid } from "./dom";
import type { ChatStrings } from "./strings";

type Spec = Record<string, unknown>;

const isObject = (v: unknown): v is Spec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The schema's properties, when it has any to show as fields. */
export function formSchema(schema: unknown): { properties: Record<string, Spec>; required: string[] } | undefined {
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([, spec]) => isObject(spec)));
  if (!Object.keys(properties).length) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  return { properties: properties as Record<string, Spec>, required };
}

type Choice = [value: string | number | boolean, label: string];
const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** [value, label] pairs of an enum field: `enum` (labels from `enumNames`), or `oneOf` of `{ const, title }`. */
function choicesOf(spec: Spec): Choice[] | undefined {
  let choices: Choice[] = [];
  if (Array.isArray(spec.enum)) {
    const names = Array.isArray(spec.enumNames) ? spec.enumNames : [];
    choices = spec.enum.flatMap((v, i): Choice[] =>
      isScalar(v) ? [[v, typeof names[i] === "string" ? names[i] : String(v)]] : [],
    );
  } else if (Array.isArray(spec.oneOf) && spec.oneOf.every((o) => isObject(o) && isScalar(o.const)))
    choices = (spec.oneOf as Spec[]).map((o) => [
      o.const as Choice[0],
      typeof o.title === "string" ? o.title : String(o.const),
    ]);
  return choices.length ? choices : undefined;
}

const INPUT_TYPES: Record<string, string> = {
  email: "email",
  uri: "url",
  url: "url",
  date: "date",
  "date-time": "datetime-local",
  time: "time",
};

export interface Field {
  name: string;
  label: string;
  box: HTMLElement;
  /** The value as the schema's type, or undefined when left empty. */
  read(): unknown;
}

function control(spec: Spec, strings: ChatStrings): { node: HTMLInputElement | HTMLSelectElement; read(): unknown } {
  const choices = choicesOf(spec);
  if (choices) {
    // a number or boolean choice comes back as itself, not as the option's string
    const node = h("select", {}, h("option", { value: "" }, strings.choose));
    for (const [value, label] of choices) node.append(h("option", { value: String(value) }, label));
    if (choices.some(([v]) => v === spec.default)) node.value = String(spec.default);
    return { node, read: () => choices.find(([v]) => String(v) === node.value)?.[0] };
  }
  if (spec.type === "boolean") {
    const node = h("input", { type: "checkbox", checked: spec.default === true });
    return { node, read: () => node.checked };
  }
  if (spec.type === "number" || spec.type === "integer") {
    const node = h("input", { type: "number", step: spec.type === "integer" ? "1" : "any" });
    if (typeof spec.minimum === "number") node.min = String(spec.minimum);
    if (typeof spec.maximum === "number") node.max = String(spec.maximum);
    if (typeof spec.default === "number") node.value = String(spec.default);
    return { node, read: () => (node.value === "" ? undefined : Number(node.value)) };
  }
  const node = h("input", { type: INPUT_TYPES[String(spec.format)] ?? "text" });
  if (typeof spec.minLength === "number") node.minLength = spec.minLength;
  if (typeof spec.maxLength === "number") node.maxLength = spec.maxLength;
  if (typeof spec.default === "string") node.value = spec.default;
  return { node, read: () => (node.value.trim() === "" ? undefined : node.value.trim()) };
}

/** One labelled control for property `name`. */
export function schemaField(name: string, spec: Spec, required: boolean, strings: ChatStrings): Field {
  const id = uid("tnx-field");
  const label = typeof spec.title === "string" && spec.title ? spec.title : name;
  const { node, read } = control(spec, strings);
  node.id = id;
  node.name = name;
  node.setAttribute("part", "field-control");
  if (required && spec.type !== "boolean") node.required = true; // a required checkbox would have to be ticked
  const title = h("label", { className: "label", for: id }, label);
  if (required && spec.type !== "boolean")
    title.append(h("span", { className: "required", "aria-hidden": "true" }, " *"));
  const box = h("div", { className: "field", part: "field" }, title, node);
  if (typeof spec.description === "string" && spec.description) {
    const hint = h("span", { className: "hint", id: `${id}-hint` }, spec.description);
    node.setAttribute("aria-describedby", hint.id);
    box.append(hint);
  }
  return { name, label, box, read };
}

/** A field's value as the chat shows it: a checkbox as yes or no. */
function shownValue(value: unknown, strings: ChatStrings): string {
  if (typeof value === "boolean") return value ? strings.yes : strings.no;
  return String(value);
}

/** What the user filled in, as the Answer's fields, and as one line of text for the chat. */
export function readFields(fields: Field[], strings: ChatStrings): { values: Record<string, unknown>; text: string } {
  const values: Record<string, unknown> = {};
  const said: string[] = [];
  for (const f of fields) {
    const value = f.read();
    if (value === undefined) continue;
    values[f.name] = value;
    said.push(`${f.label}: ${shownValue(value, strings)}`);
  }
  return { values, text: said.join(" · ") || strings.formSent };
}
