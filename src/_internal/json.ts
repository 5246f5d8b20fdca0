// Plain-value helpers with no domain: what kind of value something is, for checks and error messages.

/**
 * A JSON-style object: not an array, and its prototype is null or the `Object.prototype` of any realm, so an
 * object parsed in another frame or worker counts (a page can hand the SDK in a frame its own objects)
 * and a class instance, a Map or a Date does not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** `"null"`, `"array"`, or the `typeof` of a value — for error messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  try {
    if (Array.isArray(value)) return "array";
  } catch {} // a revoked Proxy: an object all the same
  return typeof value;
}

/** JSON with every object's keys sorted (undefined members left out): equal values, equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
