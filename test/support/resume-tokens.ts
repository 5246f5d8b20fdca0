// The world the resume-token tests share: a run halted on one or two requests in one turn ("q-city",
// "q-book"), a client that signs and checks tokens, and the check that a resume was refused for a token.
import { expect } from "vitest";
import { createClient, defineTool, memoryStorage, pending, ResumeTokenError, type ResumeTokenProblem } from "toolnexus";
import { asPending } from "./results";
import { scripted, toolResultsIn } from "./scripted";

export const SECRET = "resume-secret-0123456789abcdef";
export const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

/** Two tools that each suspend once ("q-city", "q-book") and count their runs. */
export function kit() {
  const runs = { city: 0, book: 0 };
  const tools = [
    defineTool({
      name: "ask_city",
      description: "asks for a city",
      execute: (_a, ctx) => (
        runs.city++,
        ctx?.answer
          ? `city=${ctx.answer.data?.output}`
          : pending({ kind: "input", prompt: "Which city?", id: "q-city" })
      ),
    }),
    defineTool({
      name: "approve",
      description: "asks for approval",
      execute: (_a, ctx) => (
        runs.book++, ctx?.answer ? "booked" : pending({ kind: "approval", prompt: "Book it?", id: "q-book" })
      ),
    }),
  ];
  return { tools, runs };
}

/**
 * A run halted on "q-city" (with `two`, on "q-book" too, in the same turn), stored; `client` resumes it
 * with the secret set (through `fetch` when given). The model's last turn says the tool results it got.
 */
export async function halted(opts: { two?: boolean; fetch?: typeof fetch } = {}) {
  const storage = memoryStorage();
  const k = kit();
  const s = scripted("openai", [
    { calls: opts.two ? [{ name: "ask_city" }, { name: "approve" }] : [{ name: "ask_city" }] },
    (b) => ({ text: toolResultsIn(b).join("|") }),
  ]);
  const client = createClient({ ...base, fetch: opts.fetch ?? s.fetch, storage, resumeSecret: SECRET });
  const result = asPending(await createClient({ ...base, fetch: s.fetch, storage }).run("trip", { toolkit: k.tools }));
  const key = `run:${result.runId}`;
  return { storage, k, s, client, result, runId: result.runId, key, stored: await storage.get(key) };
}

/** The problem a ResumeTokenError names, failing the test if `promise` did not reject with one. */
export async function refused(promise: Promise<unknown>): Promise<ResumeTokenProblem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResumeTokenError);
  expect((error as ResumeTokenError).code).toBe("resume_token");
  return (error as ResumeTokenError).problem;
}
