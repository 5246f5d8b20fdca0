// Which model the demo talks to and where its runs halt. By default the embedded scripted model
// (offline, no key). With BASE_URL, MODEL and API_KEY in `.dev.vars` (STYLE = "openai" | "anthropic",
// default "openai"), the same demo runs against a real OpenAI- or Anthropic-style endpoint.
import { createClient, durableObjectStorage, kvStorage } from "toolnexus";
import type { RunStorage } from "toolnexus";
import { scriptedFetch } from "./scripted-fetch";

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
  // the scripted model behind an in-isolate OpenAI-style endpoint: it streams word by word, as a real one does
  return createClient({
    baseUrl: "http://scripted.invalid/v1",
    style: "openai",
    model: "scripted-demo",
    retries: 0,
    fetch: scriptedFetch,
    storage,
  });
}

export interface StorageEnv {
  RUNS: KVNamespace;
  /** The `RunStoreObject` Durable Object namespace: atomic claims, so an answer is used exactly once. */
  RUN_STORE?: DurableObjectNamespace;
}

/** Durable Object storage when the binding exists (exactly-once resume), else KV (best effort). */
export function runStorage(env: StorageEnv): { storage: RunStorage; name: string } {
  return env.RUN_STORE
    ? { storage: durableObjectStorage({ namespace: env.RUN_STORE }), name: "Durable Object storage" }
    : { storage: kvStorage({ binding: env.RUNS, prefix: "run:" }), name: "Workers KV" };
}
