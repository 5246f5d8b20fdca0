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

/**
 * The API key for `style`, first set of `OPENROUTER_API_KEY`, then `ANTHROPIC_API_KEY` (anthropic) or
 * `OPENAI_API_KEY` (openai), then `OPENAI_API_KEY`, then `ANTHROPIC_API_KEY`. Empty values count as
 * unset. `env` replaces the host lookup (e.g. `(n) => workerEnv[n]` in a Worker).
 */
export function envApiKey(style: "openai" | "anthropic", env: EnvReader = hostEnv): string | undefined {
  const names = [
    "OPENROUTER_API_KEY",
    style === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
  ];
  for (const name of names) {
    let value: unknown;
    try {
      value = env(name);
    } catch {
      value = undefined;
    }
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
