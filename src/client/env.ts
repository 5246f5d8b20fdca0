// The API-key lookup for hosts that have an environment (Node, Deno). Browsers and Workers have none:
// there the lookup finds nothing and never throws — pass `apiKey` (or a Worker `env` reader) instead.

/** Reads one environment variable; `undefined` when unset. */
export type EnvReader = (name: string) => string | undefined;

interface EnvGlobals {
  Deno?: { env?: { get?: (name: string) => string | undefined } };
  process?: { env?: Record<string, string | undefined> };
}

/** The host's environment: Deno's env (a throw, e.g. without --allow-env, reads as unset), else Node's. */
function hostEnv(name: string): string | undefined {
  try {
    const g = globalThis as EnvGlobals;
    const deno = g.Deno?.env;
    if (typeof deno?.get === "function") return deno.get(name);
    return g.process?.env?.[name];
  } catch {
    return undefined;
  }
}

/** True when `baseUrl` is OpenRouter's API (`openrouter.ai` or a subdomain of it). */
function isOpenRouter(baseUrl: string | undefined): boolean {
  try {
    const host = new URL(baseUrl ?? "").hostname.toLowerCase();
    return host === "openrouter.ai" || host.endsWith(".openrouter.ai");
  } catch {
    return false;
  }
}

/**
 * The environment's API key for the provider `baseUrl` belongs to, and only that one — a key is never
 * sent to another provider's host: `OPENROUTER_API_KEY` for an openrouter.ai `baseUrl`, else the style's
 * own, `OPENAI_API_KEY` (openai) or `ANTHROPIC_API_KEY` (anthropic). An empty value counts as unset.
 * `env` replaces the host lookup (e.g. `(n) => workerEnv[n]` in a Worker).
 */
export function envApiKey(
  style: "openai" | "anthropic",
  baseUrl: string | undefined,
  env: EnvReader = hostEnv,
): string | undefined {
  const name = isOpenRouter(baseUrl)
    ? "OPENROUTER_API_KEY"
    : style === "anthropic"
      ? "ANTHROPIC_API_KEY"
      : "OPENAI_API_KEY";
  let value: unknown;
  try {
    value = env(name);
  } catch {
    value = undefined;
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}
