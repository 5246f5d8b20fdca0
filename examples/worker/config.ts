// Which model the demo talks to. By default the embedded scripted model (offline, no key). With
// BASE_URL, MODEL and API_KEY in `.dev.vars` (STYLE = "openai" | "anthropic", default "openai"),
// the same demo runs against a real OpenAI- or Anthropic-style endpoint.
import { createClient, createInProcessClient } from "toolnexus";
import type { RunStorage } from "toolnexus";
import { scriptedModel } from "./scripted-model";

export interface ModelEnv {
  BASE_URL?: string;
  STYLE?: string;
  MODEL?: string;
  API_KEY?: string;
}

const SYSTEM_PROMPT =
  "You are a concise travel assistant. Use the tools: ask the user with the question tool when you need a " +
  "detail (for example which city), book tables with book_table, read the calendar with calendar.";

export function usesRealModel(env: ModelEnv): boolean {
  return Boolean(env.BASE_URL && env.MODEL);
}

/** A client whose suspended runs halt into `storage` (no `waitFor`: the page answers later). */
export function demoClient(env: ModelEnv, storage: RunStorage) {
  if (usesRealModel(env)) {
    const style = env.STYLE === "anthropic" ? "anthropic" : "openai";
    return createClient({
      baseUrl: env.BASE_URL!,
      style,
      model: env.MODEL!,
      apiKey: env.API_KEY,
      systemPrompt: SYSTEM_PROMPT,
      storage,
    });
  }
  return createInProcessClient({ model: "scripted-demo", generate: scriptedModel, storage });
}
