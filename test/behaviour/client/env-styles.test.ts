// The key each of the four styles picks from the environment, and createClient's style check: a key never
// goes to another provider's host, whatever the style says.
import { describe, expect, it } from "vitest";
import { createClient } from "toolnexus";
import { envApiKey } from "../../support/internals";

const all = { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an", GEMINI_API_KEY: "ge" };
const from = (vars: Record<string, string>) => (name: string) => vars[name];
const GEMINI = "https://generativelanguage.googleapis.com";

describe("envApiKey for the Responses and Gemini styles", () => {
  for (const [style, baseUrl, vars, expected] of [
    ["openai-responses", "https://api.openai.com/v1", all, "oa"],
    ["gemini", GEMINI, all, "ge"],
    // a proxy or a local server speaking the style gets the style's own key
    ["gemini", "http://127.0.0.1:8080", all, "ge"],
    ["openai-responses", "http://127.0.0.1:4000/v1", all, "oa"],
    // a known provider's host gets that provider's key, whatever the style
    ["openai", `${GEMINI}/v1beta/openai`, all, "ge"],
    ["gemini", "https://api.openai.com/v1", { GEMINI_API_KEY: "ge" }, undefined],
    ["openai-responses", GEMINI, { OPENAI_API_KEY: "oa" }, undefined],
    ["gemini", GEMINI, { OPENAI_API_KEY: "oa", ANTHROPIC_API_KEY: "an" }, undefined],
    // a look-alike host is not Google's
    ["gemini", "https://generativelanguage.googleapis.com.evil.test", { OPENAI_API_KEY: "oa" }, undefined],
    ["openai-responses", "https://openrouter.ai/api/v1", all, "or"],
  ] as const) {
    it(`${style} at ${baseUrl} with ${Object.keys(vars).join(",")} ⇒ ${JSON.stringify(expected)}`, () => {
      expect(envApiKey(style, baseUrl, from(vars))).toBe(expected);
    });
  }
});

describe("createClient styles", () => {
  const base = { baseUrl: "http://127.0.0.1:9", model: "m", apiKey: "k-1234" };

  it("accepts the four styles", () => {
    for (const style of ["openai", "openai-responses", "anthropic", "gemini"] as const)
      expect(() => createClient({ ...base, style })).not.toThrow();
  });

  it("refuses any other style with a ConfigError naming the four", () => {
    let error: unknown;
    try {
      createClient({ ...base, style: "google" as never });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: "ConfigError", code: "config" });
    expect((error as Error).message).toContain('got "google"');
    expect((error as Error).message).toContain('"openai", "openai-responses", "anthropic", "gemini"');
  });
});
