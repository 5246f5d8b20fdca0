// createClient's options, checked once when the client is created: each bad option is a ConfigError that
// names it, shows the value it got (only the kind of a secret's) and says what would be accepted, so a
// misconfigured client never gets as far as its first call.
import { typeName } from "../_internal/json";
import { MAX_TIMER_MS } from "../_internal/signals";
import { ConfigError, shown } from "../errors";
import type { ResolvedOptions } from "../loop/context";
import type { ClientOptions } from "../loop/options";
import { STYLES } from "../run-state/record";
import { checkSecret } from "./resume-token/secret";

type Test = (value: unknown) => boolean;

const isCount = (min: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min;
const isPositive = (v: unknown) => Number.isFinite(v) && (v as number) > 0;
const isFunction = (v: unknown) => typeof v === "function";
const isString = (v: unknown) => typeof v === "string";
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The optional options, as [test, what it accepts, the options it applies to]: absent (undefined) is always
 * fine. Built when a client is created, so a bundle that never creates one carries none of it.
 */
const rules = (): [Test, string, (keyof ClientOptions)[]][] => [
  [isCount(1), "a whole number ≥ 1", ["maxTurns"]],
  [isCount(0), "a whole number ≥ 0", ["retries"]],
  [
    (v) => Number.isFinite(v) && (v as number) >= 0,
    "a number ≥ 0",
    ["retryBaseMs", "completedTtlSeconds", "pendingTtlSeconds"],
  ],
  // a longer delay than a timer can wait would fire at once
  [
    (v) => isPositive(v) && (v as number) <= MAX_TIMER_MS,
    `a number > 0 and ≤ ${MAX_TIMER_MS}`,
    ["timeoutMs", "toolTimeoutMs"],
  ],
  [isPositive, "a number > 0", ["claimLeaseMs", "answerTimeoutSeconds"]],
  [(v) => isObject(v) && isFunction((v as { now?: unknown }).now), "a clock ({ now(): number })", ["clock"]],
  [
    (v) => isCount(0)(v) && (v as number) <= MAX_TIMER_MS,
    `a whole number ≥ 0 and ≤ ${MAX_TIMER_MS}`,
    ["streamIdleTimeoutMs"],
  ],
  [isCount(1), "a whole number ≥ 1", ["maxStreamLineBytes"]],
  [(v) => Array.isArray(v) && v.every(isCount(100)), "an array of HTTP statuses", ["retryableStatuses"]],
  [isString, "a string", ["apiKey", "systemPrompt"]],
  [(v) => isObject(v) && Object.values(v as object).every(isString), "an object of strings", ["headers"]],
  [isObject, "an object", ["requestParams", "hooks"]],
  [isFunction, "a function", ["onError", "onMetric", "bodyTransform", "fetch", "waitFor"]],
  [(v) => isObject(v) && isFunction((v as { get?: unknown }).get), "a RunStorage (e.g. memoryStorage())", ["storage"]],
  [(v) => isFunction((v as { run?: unknown })?.run), "otelTelemetry({ tracer })", ["telemetry"]],
];

// each a literal: an operation at module scope (`64 * 1024 * 1024`) is one a bundler keeps, and this whole
// table with it, in every bundle that takes any name from the file it is built into (a page's too)
const DEFAULTS = {
  maxTurns: 10,
  retries: 2,
  retryBaseMs: 500,
  completedTtlSeconds: 86_400,
  pendingTtlSeconds: 604_800,
  claimLeaseMs: 60_000,
  streamIdleTimeoutMs: 300_000,
  maxStreamLineBytes: 67_108_864, // 64 MiB
};

/** Options whose value may be a secret: a message shows only its kind. */
const SECRET_OPTIONS: readonly string[] = ["apiKey", "headers", "systemPrompt"];

function refuse(option: string, value: unknown, expected: string): never {
  const got = SECRET_OPTIONS.includes(option) ? typeName(value) : shown(value);
  throw new ConfigError(option, `toolnexus: createClient ${option} must be ${expected}, got ${got}`);
}

/** Checks every option once and fills in the defaults. Throws ConfigError naming the first bad option. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (!isObject(options)) refuse("options", options, "an object with baseUrl, style and model");
  const given: Record<string, unknown> = { ...options };
  for (const key of ["baseUrl", "model"])
    if (!isString(given[key]) || !given[key]) refuse(key, given[key], "a non-empty string");
  if (!STYLES.includes(given.style)) refuse("style", given.style, STYLES.map((s) => JSON.stringify(s)).join(", "));
  for (const [ok, expected, names] of rules())
    for (const name of names) if (given[name] !== undefined && !ok(given[name])) refuse(name, given[name], expected);
  if (given.resumeSecret !== undefined) checkSecret("createClient resumeSecret", given.resumeSecret);
  else if (given.requireResumeToken === true) refuse("requireResumeToken", true, "false without a resumeSecret");
  for (const [key, value] of Object.entries(DEFAULTS)) given[key] ??= value;
  return given as unknown as ResolvedOptions;
}
