// The element's only way to make DOM: text is always set as textContent, never parsed as HTML.

type Props = Record<string, string | boolean | number | ((event: Event) => void) | undefined>;

/** `<tag>` with `props` (properties; `part`, `aria-*`, `data-*` and `for` as attributes) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string | false | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (/^(part|aria-|data-|role$|for$)/.test(key)) node.setAttribute(key, String(value));
    else (node as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) if (child !== false && child !== undefined) node.append(child);
  return node;
}

let ids = 0;
/** An id unique in the page, for a label's `for` and `aria-describedby`. */
export const uid = (prefix: string): string => `${prefix}-${++ids}`;

/** An http(s) URL as an absolute href, or undefined for anything else (`javascript:`, `data:`, junk). */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const u = new URL(url, document.baseURI);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}
