// Lossless strings for stores that keep only well-formed UTF-8 without NUL (Postgres `text`, D1, Redis
// through clients that encode UTF-8): a string with a NUL, a lone surrogate, or a leading MARK is kept as
// MARK + JSON.stringify(string), which has none of them; every other string is kept as it is. The mapping
// is one-to-one, so equal strings stay equal in the store and compare-and-set can compare stored forms.
const MARK = "\u0001";
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The form of `text` the store keeps. */
export const toStored = (text: string): string =>
  text.startsWith(MARK) || text.includes("\0") || LONE_SURROGATE.test(text) ? MARK + JSON.stringify(text) : text;

/** The string a stored form stands for. */
export const fromStored = (stored: string): string =>
  stored.startsWith(MARK) ? (JSON.parse(stored.slice(1)) as string) : stored;
