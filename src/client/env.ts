// The API-key lookup for hosts that have an environment (Node, Deno). Browsers and Workers have none:
// there the lookup finds nothing and never throws — pass `apiKey` (or a Worker `env` reader) instead.
import type { Style } from "../types";

/** Reads one environment variable; `undefined` when unset. */
export type EnvReader = (name: string) => string | undefined;

interface EnvGlobals {
  Deno?: { env?: { get?: (name: string) => string | undefined } };
  process?: { env?: Record<string, string | undefined> };
}

/** The host's environment: Deno's env (it throws without --allow-env), else Node's. */
function hostEnv(name: string): string | undefined {
  const g = globalThis as EnvGlobals;
  const deno = g.Deno?.env;
  return typeof deno?.get === "function" ? deno.get(name) : g.process?.env?.[name];
}

/** Each provider's key variable (before `_API_KEY`) and the host it serves (the host or a subdomain of it). */
const PROVIDERS: readonly [variable: string, host: string][] = [
  ["OPENROUTER", "openrouter.ai"],
  ["OPENAI", "openai.com"],
  ["ANTHROPIC", "anthropic.com"],
  ["GEMINI", "generativelanguage.googleapis.com"],
];

/** The key variable of the provider whose host `baseUrl` names, when it names a known one. */
function hostKey(baseUrl: string | undefined): string | undefined {
  let host: string;
  try {
    host = new URL(baseUrl ?? "").hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return PROVIDERS.find(([, h]) => host === h || host.endsWith(`.${h}`))?.[0];
}

/**
 * The environment's API key for the provider `baseUrl` belongs to, and only that one — a key is never
 * sent to another provider's host: a known provider's host (openrouter.ai, openai.com, anthropic.com,
 * generativelanguage.googleapis.com) gets that provider's variable whatever the style; any other host (a
 * proxy, a local server) gets the style's own: `OPENAI_API_KEY` (openai, openai-responses),
 * `ANTHROPIC_API_KEY` (anthropic) or `GEMINI_API_KEY` (gemini). An empty value counts as unset.
 * `env` replaces the host lookup (e.g. `(n) => workerEnv[n]` in a Worker).
 */
export function envApiKey(style: Style, baseUrl: string | undefined, env: EnvReader = hostEnv): string | undefined {
  // a style's own variable is its first word's: openai and openai-responses read OPENAI_API_KEY
  const name = `${hostKey(baseUrl) ?? style.split("-")[0]!.toUpperCase()}_API_KEY`;
  try {
    const value: unknown = env(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined; // a reader that throws (Deno without --allow-env) reads as unset
  }
}
