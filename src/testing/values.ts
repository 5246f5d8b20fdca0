// The awkward inputs the storage contract stores: a value of a mebibyte and more, keys and values that
// trip stores up (empty, dots, slashes, NUL, unicode, very long, reserved-looking).
const MiB = 1024 * 1024;

/** ~`size` UTF-16 units of mixed text whose surrogate pairs straddle the usual chunk boundaries (30000, 2^15, 2^16). */
export function bigValue(size: number = MiB, salt = ""): string {
  const pattern = `toolnexus ✓ 日本語 🚀 {"k":[1,2,"\\u0000"]} \\ \n${salt}`;
  let text = `${"a".repeat(29_999)}🚀${"b".repeat(32_767 - 30_001)}🌍${"c".repeat(65_535 - 32_769)}👩‍👧`;
  text += pattern.repeat(Math.ceil((size - text.length) / pattern.length));
  text = text.slice(0, size);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? `${text.slice(0, -1)}!` : text;
}

export const ODD_KEYS: readonly string[] = [
  "",
  " ",
  ".",
  "..",
  "/",
  "a/b/c",
  "../../etc/passwd",
  "ключ 🔑 鍵",
  "\u0000",
  "with\nnewline\tand tab",
  "#reserved",
  `#h:${"0".repeat(64)}`,
  "%2F?&=#frag",
  "__proto__",
  "constructor",
  "x".repeat(4000),
  `${"x".repeat(3999)}y`,
  "é".repeat(2000),
];

export const ODD_VALUES: readonly string[] = [
  "héllo wörld",
  "日本語テキスト",
  "🚀🌍 👩‍👩‍👧 family",
  "\u0000nul\u0000",
  "line\nbreak\r\n\ttab",
  '"quotes" and \\backslashes\\',
  '{"json":true,"n":[1,2]}',
  "|1234|piped",
  "1234:colon",
  "#h:not-a-hash",
  " ",
];
