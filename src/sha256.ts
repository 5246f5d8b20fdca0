// SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, synchronous. `crypto.subtle.digest` is async and, in
// Node, costs a thread-pool round trip that dominated a resume; an answer digest is a few hundred bytes.
// The round constants are derived (fractional parts of square and cube roots of the first primes), not listed.

let K: Uint32Array | undefined;
let H0: Uint32Array;

const fraction = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) >>> 0;

function constants(): Uint32Array {
  const k: number[] = [];
  const h: number[] = [];
  for (let n = 2; k.length < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n && prime; d++) prime = n % d !== 0;
    if (!prime) continue;
    if (h.length < 8) h.push(fraction(Math.sqrt(n)));
    k.push(fraction(Math.cbrt(n)));
  }
  H0 = Uint32Array.from(h);
  return Uint32Array.from(k);
}

type Eight = [number, number, number, number, number, number, number, number];

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** Lower-case hex SHA-256 of `text` encoded as UTF-8 (the same digest `crypto.subtle` gives). */
export function sha256Hex(text: string): string {
  K ??= constants();
  const bytes = new TextEncoder().encode(text);
  const n = bytes.length;
  const words = new Uint32Array((((n + 8) >> 6) + 1) * 16); // message + 0x80 + 64-bit length, in 512-bit blocks
  for (let i = 0; i < n; i++) words[i >> 2]! |= bytes[i]! << (24 - (i & 3) * 8);
  words[n >> 2]! |= 0x80 << (24 - (n & 3) * 8);
  words[words.length - 2] = Math.floor(n / 2 ** 29);
  words[words.length - 1] = n * 8;
  const h = H0.slice();
  const w = new Uint32Array(64);
  for (let block = 0; block < words.length; block += 16) {
    for (let i = 0; i < 64; i++) {
      if (i < 16) w[i] = words[block + i]!;
      else {
        const a = w[i - 15]!;
        const b = w[i - 2]!;
        w[i] = w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10));
      }
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as Eight;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
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
    h[0]! += a;
    h[1]! += b;
    h[2]! += c;
    h[3]! += d;
    h[4]! += e;
    h[5]! += f;
    h[6]! += g;
    h[7]! += hh;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
}
