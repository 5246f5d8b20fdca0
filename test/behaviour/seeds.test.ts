// The family's three seeds for answer_output (Clojure, Elixir, Python), each example as a test: the Answer's
// shape, a non-string output refused with a TypeError that is also a ConfigError and a ToolnexusError, and a
// suspended run resumed inline through waitFor — the same in Node, Chromium, workerd and Deno.
import {
  ConfigError,
  InvalidAnswerError,
  RunConflictError,
  ToolnexusError,
  answerOutput,
  createClient,
  createToolkit,
  defineTool,
  isToolnexusError,
  pending,
  type Answer,
  type ToolContext,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { scripted } from "../support/scripted";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

/** What `call` threw; fails the test when it returned. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** A tool that suspends with an `input` Request, then returns what `reply` makes of the answer it gets. */
function asking(name: string, reply: (answer: Answer) => string) {
  const answers: Answer[] = [];
  const tool = defineTool({
    name,
    description: "asks the human",
    inputSchema: { type: "object", properties: {} },
    execute: (_args: Record<string, unknown>, ctx: ToolContext) => {
      if (!ctx.answer) return pending({ kind: "input", prompt: "Which one?" });
      answers.push(ctx.answer);
      return reply(ctx.answer);
    },
  });
  return { tool, answers };
}

describe("seed: Clojure answer-output", () => {
  it("example 1: answers a plain question", () => {
    expect(answerOutput("sus-1", "Chennai")).toEqual({ id: "sus-1", ok: true, data: { output: "Chennai" } });
  });

  it("example 2: a waitFor hook resolves a queued reply and the run finishes", async () => {
    const model = scripted("openai", [
      { calls: [{ id: "c1", name: "ask_city" }] },
      { text: "The weather in Chennai is sunny." },
    ]);
    const city = asking("ask_city", (answer) => String(answer.data?.output));
    const client = createClient({
      ...base,
      fetch: model.fetch,
      waitFor: async (request) => answerOutput(request.id, "Chennai"),
    });
    const result = await client.run("Which city should I check the weather for?", { toolkit: [city.tool] });
    expect(result.status).toBe("done");
    expect(result.text).toBe("The weather in Chennai is sunny.");
    expect(city.answers.map((a) => a.data)).toEqual([{ output: "Chennai" }]);
  });

  it("example 3: marks the answer an error, and refuses a number output", () => {
    expect(answerOutput("sus-2", "not-a-real-city", true)).toEqual({
      id: "sus-2",
      ok: true,
      data: { output: "not-a-real-city", isError: true },
    });
    const error = thrown(() => answerOutput("sus-3", 42 as unknown as string));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message.startsWith("toolnexus: Answer output must be a string")).toBe(true);
    expect((error as Error).message).toBe("toolnexus: Answer output must be a string, got number 42");
  });
});

describe("seed: Elixir Toolnexus.Answer.answer_output/2", () => {
  it("example 1: builds the Answer", () => {
    const answer = answerOutput("req-1", "42");
    expect(answer.id).toBe("req-1");
    expect(answer.ok).toBe(true);
    expect(answer.data).toEqual({ output: "42" });
  });

  it("example 2: a non-string output raises rather than degrading", () => {
    const error = thrown(() => answerOutput("req-1", { a: 1 } as unknown as string));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("must be a string");
  });

  it("example 3: an answer that survived a JSON round-trip resumes the run", async () => {
    const model = scripted("openai", [{ calls: [{ id: "c1", name: "ask_human" }] }, { text: "thanks" }]);
    const human = asking("ask_human", (answer) => `got: ${answer.data?.output}`);
    const roundTripped = JSON.parse(JSON.stringify(answerOutput("q1", "Ada"))) as Answer;
    const client = createClient({
      ...base,
      fetch: model.fetch,
      waitFor: async (request) => ({ ...roundTripped, id: request.id }),
    });
    const result = await client.run("ask my name", { toolkit: [human.tool] });
    expect(result.status).toBe("done");
    expect(result.text).toBe("thanks");
    expect(human.answers.map((a) => a.data)).toEqual([{ output: "Ada" }]);
  });
});

describe("seed: Python answer_output", () => {
  it("example 1: builds the Answer directly", () => {
    const answer = answerOutput("pnd-1", "staging");
    expect(answer).toEqual({ id: "pnd-1", ok: true, data: { output: "staging" } });
  });

  it("example 2: a non-string output is a TypeError, and the correct call carries a string", () => {
    expect(() => answerOutput("pnd-1", { value: "staging" } as unknown as string)).toThrow(TypeError);
    expect(typeof answerOutput("pnd-1", "staging").data?.output).toBe("string");
  });

  it("example 3: a suspended run resumes through waitFor", async () => {
    const model = scripted("openai", [{ calls: [{ id: "c1", name: "ask_human" }] }, { text: "ok" }]);
    const human = asking("ask_human", (answer) => String(answer.data?.output));
    const toolkit = await createToolkit({ builtins: false, tools: [human.tool] });
    const client = createClient({
      ...base,
      fetch: model.fetch,
      waitFor: async (request) => answerOutput(request.id, "staging"),
    });
    const result = await client.run("go", { toolkit });
    expect(result.status).toBe("done");
    expect(human.answers.map((a) => a.data?.output)).toEqual(["staging"]);
  });
});

describe("the refusal is a TypeError and a ToolnexusError at once", () => {
  it("carries the class, the code, the option and the marker", () => {
    const error = thrown(() => answerOutput("sus-3", 42 as unknown as string));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toBeInstanceOf(ToolnexusError);
    expect(isToolnexusError(error)).toBe(true);
    expect(error).toMatchObject({ name: "ConfigError", code: "config", option: "output" });
  });

  it("instanceof ToolnexusError reads the marker, so an error from another copy of the package holds", () => {
    const foreign = Object.defineProperty(new Error("from another copy"), Symbol.for("toolnexus.error"), {
      value: true,
    });
    expect(foreign instanceof ToolnexusError).toBe(true);
    expect(new Error("plain") instanceof ToolnexusError).toBe(false);
    expect(new TypeError("plain") instanceof ToolnexusError).toBe(false);
    expect(isToolnexusError(null)).toBe(false);
  });

  it("a subclass's instanceof stays its own", () => {
    const conflict = new RunConflictError("run-1", "busy", "busy");
    expect(conflict instanceof RunConflictError).toBe(true);
    expect(conflict instanceof ToolnexusError).toBe(true);
    expect(conflict instanceof InvalidAnswerError).toBe(false);
    expect(new ConfigError("x", "bad") instanceof RunConflictError).toBe(false);
    expect(new InvalidAnswerError("id", "bad") instanceof ConfigError).toBe(false);
  });
});
