// The chunked-value format, for stores that limit a value's size (Durable Objects, Deno KV).
import { isPlainObject } from "../_internal/json";

/** Splits `text` into pieces of at most `size` UTF-16 units, never between the halves of a surrogate pair. */
export function chunk(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}

/**
 * The chunked-value format, for stores that limit a value's size (Durable Objects, Deno KV): the head
 * entry under the key holds the value itself when it fits, else the id and count of the chunks holding it
 * under fresh keys; `e` is the expiry in ms since the epoch. A plain string under the key (written by
 * someone else) reads as a value that never expires.
 */
export interface Head {
  v?: string; // the value, when it fits in one entry
  g?: string; // else the id of its chunks…
  n?: number; // …and how many there are
  e?: number; // expiry, ms since the epoch
}

/** The head a stored entry holds, or `undefined` when it is not one this format wrote. */
export function readHead(raw: unknown): Head | undefined {
  if (typeof raw === "string") return { v: raw };
  if (!isPlainObject(raw)) return undefined;
  const h = raw as Head;
  if (h.e !== undefined && typeof h.e !== "number") return undefined;
  return typeof h.v === "string" || (typeof h.g === "string" && Number.isInteger(h.n)) ? h : undefined;
}

/** The head for `value` and the chunks to write first: none when it fits in `size` UTF-16 units. */
export function headFor(value: string, size: number, e: number | undefined): { head: Head; parts: string[] } {
  const parts = value.length <= size ? [] : chunk(value, size);
  const head: Head = parts.length === 0 ? { v: value } : { g: crypto.randomUUID(), n: parts.length };
  if (e !== undefined) head.e = e;
  return { head, parts };
}
