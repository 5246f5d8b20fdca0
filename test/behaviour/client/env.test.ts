// envApiKey: the lookup order, and that it finds nothing (and never throws) where there is no environment.
import { describe, expect, it } from "vitest";
import { envApiKey } from "../support/internals";

const from = (vars: Record<string, string>) => (name: string) => vars[name];

interface HostGlobals {
  Deno?: { permissions?: { querySync?: (d: { name: string }) => { state: string } } };
  process?: { env?: Record<string, string | undefined> };
}
const host = globalThis as HostGlobals;

describe("envApiKey: order", () => {
  const all = { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an" };

  for (const [style, vars, expected] of [
    ["openai", all, "or"],
    ["anthropic", all, "or"],
    ["openai", { OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an" }, "oa"],
    ["anthropic", { OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an" }, "an"],
    ["anthropic", { OPENAI_API_KEY: "oa" }, "oa"],
    ["openai", { ANTHROPIC_API_KEY: "an" }, "an"],
    ["openai", { OPENROUTER_API_KEY: "", OPENAI_API_KEY: "oa" }, "oa"],
    ["openai", {}, undefined],
  ] as const) {
    it(`${style} with ${JSON.stringify(vars)} ⇒ ${JSON.stringify(expected)}`, () => {
      expect(envApiKey(style, from(vars))).toBe(expected);
    });
  }

  it("a reader that throws counts as unset", () => {
    const denied = () => {
      throw new Error("Requires env access");
    };
    expect(envApiKey("openai", denied)).toBeUndefined();
  });
});

describe("envApiKey: the host environment", () => {
  it("never throws and returns a string or undefined", () => {
    for (const style of ["openai", "anthropic"] as const) {
      const key = envApiKey(style);
      expect(key === undefined || (typeof key === "string" && key !== "")).toBe(true);
    }
  });

  it("finds nothing where there is no environment (browsers; Deno without --allow-env), else what the environment holds", () => {
    const denoDenied =
      host.Deno !== undefined && host.Deno.permissions?.querySync?.({ name: "env" }).state !== "granted";
    const env = host.Deno === undefined ? host.process?.env : undefined;
    const direct = (name: string) => (typeof env === "object" ? env[name] : undefined);
    const expected =
      denoDenied || (host.Deno === undefined && typeof env !== "object") ? undefined : envApiKey("openai", direct);
    if (host.Deno === undefined || denoDenied) expect(envApiKey("openai")).toBe(expected);
    else expect(typeof envApiKey("openai")).toMatch(/^(string|undefined)$/); // Deno with env granted
  });

  it("reads a process environment when the host has one", () => {
    const env = host.Deno === undefined ? host.process?.env : undefined;
    if (typeof env !== "object") return expect(envApiKey("anthropic")).toBeUndefined();
    const saved = env.OPENROUTER_API_KEY;
    env.OPENROUTER_API_KEY = "or-from-env";
    try {
      expect(envApiKey("anthropic")).toBe("or-from-env");
    } finally {
      if (saved === undefined) delete env.OPENROUTER_API_KEY;
      else env.OPENROUTER_API_KEY = saved;
    }
  });
});
