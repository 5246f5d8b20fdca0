// envApiKey: the lookup order, and that it finds nothing (and never throws) where there is no environment.
import { describe, expect, it } from "vitest";
import { envApiKey } from "../../support/internals";

const from = (vars: Record<string, string>) => (name: string) => vars[name];

interface HostGlobals {
  Deno?: { permissions?: { querySync?: (d: { name: string }) => { state: string } } };
  process?: { env?: Record<string, string | undefined> };
}
const host = globalThis as HostGlobals;

describe("envApiKey: a key goes only to its own provider's host", () => {
  const all = { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an" };
  const OPENAI = "https://api.openai.com/v1";
  const ANTHROPIC = "https://api.anthropic.com";
  const OPENROUTER = "https://openrouter.ai/api/v1";

  for (const [style, baseUrl, vars, expected] of [
    ["openai", OPENAI, all, "oa"],
    ["anthropic", ANTHROPIC, all, "an"],
    ["openai", OPENROUTER, all, "or"],
    ["anthropic", "https://eu.openrouter.ai/api", all, "or"],
    // the only key set belongs to another provider: nothing is sent
    ["openai", OPENAI, { OPENROUTER_API_KEY: "or" }, undefined],
    ["openai", "http://127.0.0.1:8080/v1", { ANTHROPIC_API_KEY: "an" }, undefined],
    ["anthropic", ANTHROPIC, { OPENAI_API_KEY: "oa" }, undefined],
    ["openai", OPENROUTER, { OPENAI_API_KEY: "oa" }, undefined],
    // a look-alike host is not OpenRouter
    ["openai", "https://openrouter.ai.evil.test/v1", { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa" }, "oa"],
    ["openai", OPENAI, { OPENAI_API_KEY: "" }, undefined],
    ["openai", "not a url", { OPENAI_API_KEY: "oa" }, "oa"],
    ["openai", OPENAI, {}, undefined],
  ] as const) {
    it(`${style} at ${baseUrl} with ${JSON.stringify(vars)} ⇒ ${JSON.stringify(expected)}`, () => {
      expect(envApiKey(style, baseUrl, from(vars))).toBe(expected);
    });
  }

  it("a reader that throws counts as unset", () => {
    const denied = () => {
      throw new Error("Requires env access");
    };
    expect(envApiKey("openai", undefined, denied)).toBeUndefined();
  });
});

describe("envApiKey: the host environment", () => {
  it("never throws and returns a string or undefined", () => {
    for (const style of ["openai", "anthropic"] as const) {
      const key = envApiKey(style, undefined);
      expect(key === undefined || (typeof key === "string" && key !== "")).toBe(true);
    }
  });

  it("finds nothing where there is no environment (browsers; Deno without --allow-env), else what the environment holds", () => {
    const denoDenied =
      host.Deno !== undefined && host.Deno.permissions?.querySync?.({ name: "env" }).state !== "granted";
    const env = host.Deno === undefined ? host.process?.env : undefined;
    const direct = (name: string) => (typeof env === "object" ? env[name] : undefined);
    const expected =
      denoDenied || (host.Deno === undefined && typeof env !== "object")
        ? undefined
        : envApiKey("openai", undefined, direct);
    if (host.Deno === undefined || denoDenied) expect(envApiKey("openai", undefined)).toBe(expected);
    else expect(typeof envApiKey("openai", undefined)).toMatch(/^(string|undefined)$/); // Deno with env granted
  });

  it("reads a process environment when the host has one", () => {
    const env = host.Deno === undefined ? host.process?.env : undefined;
    const openrouter = "https://openrouter.ai/api/v1";
    if (typeof env !== "object") return expect(envApiKey("anthropic", openrouter)).toBeUndefined();
    const saved = env.OPENROUTER_API_KEY;
    env.OPENROUTER_API_KEY = "or-from-env";
    try {
      expect(envApiKey("anthropic", openrouter)).toBe("or-from-env");
    } finally {
      if (saved === undefined) delete env.OPENROUTER_API_KEY;
      else env.OPENROUTER_API_KEY = saved;
    }
  });
});
