// createClient's options, checked once when the client is created: each bad option is a ConfigError that
// names it and says what would work, so a misconfigured client never gets as far as its first call.
import { typeName } from "../_internal/json";
import { MAX_TIMER_MS } from "../_internal/signals";
import { ConfigError, shown } from "../errors";
import type { ResolvedOptions } from "../loop/context";
import type { ClientOptions, Style } from "../types";
import { checkResumeConfig } from "./resume-token/secret";

const STYLES: readonly unknown[] = ["openai", "openai-responses", "anthropic", "gemini"] satisfies Style[];

type Rule = [name: keyof ClientOptions, ok: (value: unknown) => boolean, expected: string];

const isCount = (min: number) => (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= min;
const isDuration = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isPositive = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v > 0;
/** A delay a timer can wait: a longer one would fire at once. */
const isDelay = (v: unknown) => isPositive(v) && (v as number) <= MAX_TIMER_MS;
const isFunction = (v: unknown) => typeof v === "function";
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown) => isObject(v) && Object.values(v as object).every((x) => typeof x === "string");

/**
 * Optional options: absent (undefined) is always fine; present, the value must pass. Built when a client
 * is created, so a bundle that never creates one carries none of it.
 */
const rules = (): Rule[] => [
  ["maxTurns", isCount(1), "a whole number ≥ 1, e.g. maxTurns: 10"],
  ["retries", isCount(0), "a whole number ≥ 0, e.g. retries: 2"],
  ["retryBaseMs", isDuration, "a number of ms ≥ 0, e.g. retryBaseMs: 500"],
  ["retryableStatuses", (v) => Array.isArray(v) && v.every(isCount(100)), "an array of HTTP statuses, e.g. [408]"],
  ["timeoutMs", isDelay, `a number of ms > 0 and ≤ ${MAX_TIMER_MS}, e.g. timeoutMs: 30000`],
  ["toolTimeoutMs", isDelay, `a number of ms > 0 and ≤ ${MAX_TIMER_MS}, e.g. toolTimeoutMs: 10000`],
  ["completedTtlSeconds", isDuration, "a number of seconds ≥ 0 (0 keeps no outcome), e.g. 86400"],
  ["pendingTtlSeconds", isDuration, "a number of seconds ≥ 0 (0 keeps halted runs for ever), e.g. 604800"],
  ["claimLeaseMs", isPositive, "a number of ms > 0, e.g. claimLeaseMs: 60000"],
  ["apiKey", (v) => typeof v === "string", "a string"],
  ["systemPrompt", (v) => typeof v === "string", "a string"],
  ["headers", isStringMap, "an object of header names to string values"],
  [
    "requestParams",
    isObject,
    "an object merged into every request body (its messages, tools and stream keys are ignored)",
  ],
  ["hooks", isObject, "an object of hook functions (beforeLLM, afterLLM, beforeTool, afterTool)"],
  ["onError", isFunction, "a function"],
  ["onMetric", isFunction, "a function"],
  ["bodyTransform", isFunction, "a function"],
  ["fetch", isFunction, "a fetch function"],
  ["waitFor", isFunction, "a function (request) => Promise<Answer>"],
  ["storage", (v) => isObject(v) && isFunction((v as { get?: unknown }).get), "a RunStorage (e.g. memoryStorage())"],
  ["telemetry", (v) => isFunction((v as { run?: unknown })?.run), "otelTelemetry({ tracer })"],
];

/** Options whose value may be a secret: a message shows only its kind. */
const SECRET_OPTIONS: readonly string[] = ["apiKey", "headers", "systemPrompt", "resumeSecret"];

function refuse(option: string, value: unknown, expected: string): never {
  const got = SECRET_OPTIONS.includes(option) ? typeName(value) : shown(value);
  throw new ConfigError(option, `toolnexus: createClient ${option} must be ${expected}, got ${got}`);
}

/** Checks every option once and fills in the defaults. Throws ConfigError naming the first bad option. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (!isObject(options)) refuse("options", options, "an object with baseUrl, style and model");
  for (const key of ["baseUrl", "model"] as const) {
    if (typeof options[key] !== "string" || !options[key]) refuse(key, options[key], "a non-empty string");
  }
  if (!STYLES.includes(options.style)) refuse("style", options.style, STYLES.map((s) => `"${s}"`).join(", "));
  for (const [name, ok, expected] of rules()) {
    const value = options[name];
    if (value !== undefined && !ok(value)) refuse(name, value, expected);
  }
  checkResumeConfig(options.resumeSecret, options.requireResumeToken === true);
  return {
    ...options,
    maxTurns: options.maxTurns ?? 10,
    retries: options.retries ?? 2,
    retryBaseMs: options.retryBaseMs ?? 500,
    completedTtlSeconds: options.completedTtlSeconds ?? 86_400,
    pendingTtlSeconds: options.pendingTtlSeconds ?? 604_800,
    claimLeaseMs: options.claimLeaseMs ?? 60_000,
  };
}
