// Shared measuring helpers: alternating warm-up + repeats, median and p25–p75 spread,
// bytes allocated per operation (through V8's GC profiler), and markdown formatting.
import { GCProfiler, getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { performance } from "node:perf_hooks";

setFlagsFromString("--expose-gc");
/** A forced full collection (V8's `gc`, exposed without needing a command-line flag). */
export const gc = runInNewContext("gc");

/** Smoke settings: one sample of everything, just enough to prove a benchmark runs and yields numbers. */
export const SMOKE = { warmup: 0, repeats: 1 };

/**
 * Runs every case `warmup` then `repeats` times, alternating: in round r the cases start at r mod n,
 * so no participant always runs first (or right after the same neighbour). Each call of `fn` is one
 * sample; it returns how many operations it did (default 1), and the sample is its time per operation.
 * @returns {Promise<Record<string, number[]>>} milliseconds per operation, per case name
 */
export async function alternate(cases, { warmup, repeats }) {
  const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + repeats; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length];
      const t0 = performance.now();
      const ops = (await c.fn()) ?? 1;
      const ms = (performance.now() - t0) / ops;
      if (round >= warmup) samples[c.name].push(ms);
    }
  }
  return samples;
}

/**
 * Bytes allocated on the V8 heap while `fn` runs (garbage included): the heap growth plus everything
 * the collections in between freed. `fn` returns how many operations it did; the result is per operation.
 */
export async function allocated(fn) {
  gc();
  const profiler = new GCProfiler();
  const before = getHeapStatistics().used_heap_size;
  profiler.start();
  const ops = (await fn()) ?? 1;
  const after = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const s of statistics) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
  return (after - before + freed) / ops;
}

/** Bytes per operation for each case, measured `rounds` times alternating; returns the samples per case. */
export async function alternateAllocated(cases, rounds) {
  const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length];
      samples[c.name].push(await allocated(c.fn));
    }
  }
  return samples;
}

/** The q-quantile (0…1) of numbers, linearly interpolated. */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

/** Median and p25–p75 of samples. */
export function stats(values) {
  return { median: quantile(values, 0.5), p25: quantile(values, 0.25), p75: quantile(values, 0.75), n: values.length };
}

/** A finite positive number (what a smoke pass checks every measurement is). */
export function isMeasured(x) {
  return typeof x === "number" && Number.isFinite(x) && x > 0;
}

/** Time with a unit that keeps three significant digits: µs under 1 ms, s over 1,000 ms. */
export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return "–";
  if (ms < 1) return `${sig(ms * 1000)} µs`;
  if (ms >= 1000) return `${sig(ms / 1000)} s`;
  return `${sig(ms)} ms`;
}

/** "median (p25–p75)" with the unit of the median. */
export function fmtSpread({ median, p25, p75 }, fmt = fmtMs) {
  return `${fmt(median)} (${fmt(p25)}–${fmt(p75)})`;
}

export function fmtBytes(b) {
  if (!Number.isFinite(b)) return "–";
  if (b < 1024) return `${Math.round(b)} B`;
  if (b < 1024 * 1024) return `${sig(b / 1024)} KiB`;
  return `${sig(b / 1024 / 1024)} MiB`;
}

/** a / b as "0.42×". */
export function ratio(a, b) {
  return Number.isFinite(a / b) ? `${sig(a / b)}×` : "–";
}

export function sig(x) {
  if (x === 0) return "0";
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return x.toFixed(Math.min(digits, 3));
}

/** A markdown table from a header row and body rows. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
