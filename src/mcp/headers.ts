// `Mcp-Param-*` headers (protocol 2026-07-28, SEP-2243) for a page's main thread. The MCP client mirrors
// arguments marked `x-mcp-header` into headers itself everywhere except there (it turns mirroring off when
// `window` and `document` exist), and a 2026-07-28 server then refuses the call with -32020. So on a page we
// compute them here, with the client's own rules: only properties reached through a chain of `properties`,
// primitives only, values that are not a plain ASCII field value sent as `=?base64?…?=`.

const PREFIX = "Mcp-Param-";
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface Declaration {
  path: string[];
  header: string;
}

/** True on a browser main thread, the one place the MCP client leaves the headers out. */
export function isPageMainThread(): boolean {
  const g = globalThis as Record<string, unknown>;
  return g.window !== undefined && g.document !== undefined;
}

function declarations(schema: unknown, path: string[] = [], out: Declaration[] = []): Declaration[] {
  if (typeof schema !== "object" || schema === null) return out;
  const node = schema as Record<string, unknown>;
  const header = node["x-mcp-header"];
  if (path.length > 0 && typeof header === "string" && TOKEN.test(header)) out.push({ path, header });
  const props = node.properties;
  if (typeof props === "object" && props !== null) {
    for (const [key, child] of Object.entries(props)) declarations(child, [...path, key], out);
  }
  return out;
}

function primitive(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

function encode(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith("=?base64?") && value.endsWith("?="));
  if (plain) return value;
  let bin = "";
  for (const b of new TextEncoder().encode(value)) bin += String.fromCharCode(b);
  return `=?base64?${btoa(bin)}?=`;
}

/** The `Mcp-Param-*` headers one call's arguments need, by the tool's `inputSchema`. */
export function paramHeaders(inputSchema: unknown, args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declarations(inputSchema)) {
    let value: unknown = args;
    for (const key of path)
      value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    const text = primitive(value);
    if (text !== undefined) headers[PREFIX + header] = encode(text);
  }
  return headers;
}
