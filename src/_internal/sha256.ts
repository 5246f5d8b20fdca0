// SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, computed in JavaScript. `crypto.subtle.digest` costs,
// in Node, a thread-pool round trip (about 40 µs a call) that dominated a halt → resume: with it, what
// suspending adds was 3.2× a JSON round trip of the record at 100 messages, against 1.5× with this (bench/,
// Node 24). It resolves a promise so that callers do not depend on how the digest is made.
// The round constants are derived (fractional parts of square and cube roots of the first primes), not listed.

// Everything is kept in signed 32-bit integers (`| 0`): Uint32 values above 2^31 would make V8 compute in
// doubles, several times slower.

let K: Int32Array | undefined;
let H0: Int32Array;
let W: Int32Array | undefined;
let HEX: string[] | undefined;

const fraction = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) | 0;

function constants(): Int32Array {
  const k: number[] = [];
  const h: number[] = [];
  for (let n = 2; k.length < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n && prime; d++) prime = n % d !== 0;
    if (!prime) continue;
    if (h.length < 8) h.push(fraction(Math.sqrt(n)));
    k.push(fraction(Math.cbrt(n)));
  }
  H0 = Int32Array.from(h);
  return Int32Array.from(k);
}

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

let encoder: TextEncoder | undefined;
let bytes: Uint8Array | undefined; // scratch for the UTF-8 bytes, reused: in Node a typed array costs microseconds to allocate

/** `text` as UTF-8 (as TextEncoder writes it), packed big-endian into 32-bit words and padded to whole 512-bit blocks. */
function padded(text: string): number[] {
  if (!bytes || bytes.length < text.length * 3) bytes = new Uint8Array(Math.max(256, text.length * 3));
  encoder ??= new TextEncoder();
  const size = encoder.encodeInto(text, bytes).written;
  const length = (((size + 8) >> 6) + 1) * 16; // message + 0x80 + 64-bit length
  const words: number[] = new Array(length).fill(0);
  for (let i = 0; i < size; i++) words[i >> 2]! |= bytes[i]! << (24 - (i & 3) * 8);
  words[size >> 2]! |= 0x80 << (24 - (size & 3) * 8);
  words[length - 2] = (size / 2 ** 29) | 0;
  words[length - 1] = (size * 8) | 0;
  return words;
}

/** Lower-case hex SHA-256 of `text` encoded as UTF-8 (the same digest `crypto.subtle` gives). */
export async function sha256Hex(text: string): Promise<string> {
  return digestHex(text);
}

function digestHex(text: string): string {
  K ??= constants();
  const k = K;
  const words = padded(text);
  const h = [H0[0]!, H0[1]!, H0[2]!, H0[3]!, H0[4]!, H0[5]!, H0[6]!, H0[7]!];
  W ??= new Int32Array(64); // scratch, reused: digestHex runs to its end without yielding
  const w = W;
  for (let block = 0; block < words.length; block += 16) {
    for (let i = 0; i < 16; i++) w[i] = words[block + i]!;
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] =
        (w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) |
        0;
    }
    let a = h[0]!,
      b = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + hh) | 0;
  }
  HEX ??= Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
  const hex = HEX;
  let out = "";
  for (const x of h) out += hex[x >>> 24]! + hex[(x >> 16) & 255]! + hex[(x >> 8) & 255]! + hex[x & 255]!;
  return out;
}
