// The suspension data (pending requests, answers, parseAnswer/parseRequest), the same in Node, Chromium, workerd and Deno.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  answerDeclined,
  answerOutput,
  authRequired,
  InvalidAnswerError,
  isToolnexusError,
  parseAnswer,
  parseRequest,
  pending,
  pendingOf,
  relayAnswer,
  type Answer,
} from "toolnexus";

const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("answerOutput", () => {
  it("wraps a plain reply (seed example 1)", () => {
    expect(answerOutput("sus-1", "Chennai")).toEqual({ id: "sus-1", ok: true, data: { output: "Chennai" } });
    expect(answerOutput("req-1", "42")).toEqual({ id: "req-1", ok: true, data: { output: "42" } });
  });

  it("marks a failed output with data.isError", () => {
    expect(answerOutput("sus-1", "boom", true)).toEqual({
      id: "sus-1",
      ok: true,
      data: { output: "boom", isError: true },
    });
    expect(answerOutput("sus-1", "fine", false).data).toEqual({ output: "fine" });
  });

  it("keeps an empty string as it is", () => {
    expect(answerOutput("sus-1", "").data).toEqual({ output: "" });
  });

  for (const [value, type] of [
    [{ city: "Chennai" }, "object"],
    [42, "number"],
    [null, "null"],
    [undefined, "undefined"],
    [["a"], "array"],
    [true, "boolean"],
  ] as const) {
    it(`throws ConfigError for a ${type} output, never coercing it`, () => {
      const call = () => answerOutput("sus-1", value as unknown as string);
      expect(call).toThrow(ConfigError);
      expect(call).toThrow(`toolnexus: Answer output must be a string, got ${type}`);
    });
  }

  it("throws ConfigError for an empty id", () => {
    expect(() => answerOutput("", "x")).toThrow(ConfigError);
    expect(() => answerOutput("", "x")).toThrow("id is required");
  });

  it("survives a JSON round-trip unchanged and is accepted after it", () => {
    const a = answerOutput("q1", "Ada", true);
    expect(roundTrip(a)).toEqual(a);
    expect(parseAnswer(roundTrip(a))).toEqual(a);
  });
});

describe("answerDeclined", () => {
  it("defaults the reason to declined", () => {
    expect(answerDeclined("sus-1")).toEqual({ id: "sus-1", ok: false, reason: "declined" });
  });
  it("takes cancelled and expired", () => {
    expect(answerDeclined("sus-1", "expired")).toEqual({ id: "sus-1", ok: false, reason: "expired" });
    expect(answerDeclined("sus-1", "cancelled").reason).toBe("cancelled");
  });
  it("refuses any other reason and an empty id", () => {
    expect(() => answerDeclined("sus-1", "nope" as never)).toThrow(ConfigError);
    expect(() => answerDeclined("")).toThrow(ConfigError);
  });
  it("round-trips through JSON and parseAnswer", () => {
    const a = answerDeclined("x", "cancelled");
    expect(parseAnswer(roundTrip(a))).toEqual(a);
  });
  it("says why in words with a message, which survives JSON and parseAnswer", () => {
    const a = answerDeclined("x", undefined, "too pricey");
    expect(a).toEqual({ id: "x", ok: false, reason: "declined", message: "too pricey" });
    expect(parseAnswer(roundTrip(a))).toEqual(a);
    expect(answerDeclined("x", "expired", "m".repeat(1000)).message).toHaveLength(1000);
  });
  it("refuses a message that is not a string or is longer than 1000 characters", () => {
    expect(() => answerDeclined("x", "declined", 42 as never)).toThrow(ConfigError);
    expect(() => answerDeclined("x", "declined", "m".repeat(1001))).toThrow(/at most 1000 characters/);
    for (const message of [42, "m".repeat(1001), { text: "no" }]) {
      let error: unknown;
      try {
        parseAnswer({ id: "x", ok: false, reason: "declined", message });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidAnswerError);
      expect((error as InvalidAnswerError).field).toBe("message");
    }
  });
});

describe("relayAnswer", () => {
  it("carries the host's results", () => {
    const a = relayAnswer("r1", [
      { id: "c1", output: "ok" },
      { id: "c2", output: "bad", isError: true },
    ]);
    expect(a).toEqual({
      id: "r1",
      ok: true,
      data: {
        results: [
          { id: "c1", output: "ok" },
          { id: "c2", output: "bad", isError: true },
        ],
      },
    });
    expect(parseAnswer(roundTrip(a))).toEqual(a);
  });
  it("refuses a non-string output", () => {
    expect(() => relayAnswer("r1", [{ id: "c1", output: 1 as unknown as string }])).toThrow(
      "toolnexus: Answer output must be a string, got number",
    );
  });
});

describe("pending / authRequired / pendingOf", () => {
  it("suspends with the Request in metadata.pending", () => {
    const r = pending({ kind: "input", prompt: "Which city?", id: "q1" });
    expect(r).toEqual({
      output: "Which city?",
      isError: true,
      metadata: { pending: { id: "q1", kind: "input", prompt: "Which city?" } },
    });
    expect(pendingOf(r)).toEqual({ id: "q1", kind: "input", prompt: "Which city?" });
  });
  it("appends the url to the output", () => {
    const r = authRequired("https://auth.example/authorize");
    expect(r.output).toBe("Authorization required to continue\nhttps://auth.example/authorize");
    expect(pendingOf(r)).toMatchObject({
      kind: "authorization",
      url: "https://auth.example/authorize",
      prompt: "Authorization required to continue",
    });
  });
  it("gives every Request a fresh unique id", () => {
    const ids = new Set(Array.from({ length: 50 }, () => pendingOf(pending({ kind: "input", prompt: "?" }))!.id));
    expect(ids.size).toBe(50);
  });
  it("finds no Request in an ordinary result", () => {
    expect(pendingOf({ output: "x", isError: false })).toBeUndefined();
    expect(pendingOf({ output: "x", isError: true, metadata: { pending: "nope" } })).toBeUndefined();
  });
});

describe("parseAnswer", () => {
  const bad: [unknown, string][] = [
    [null, ""],
    ["yes", ""],
    [{ ok: true }, "id"],
    [{ id: "", ok: true }, "id"],
    [{ id: "a", ok: "true" }, "ok"],
    [{ id: "a", ok: true, data: "Chennai" }, "data"],
    [{ id: "a", ok: true, data: [] }, "data"],
    [{ id: "a", ok: false, reason: "later" }, "reason"],
  ];
  for (const [value, field] of bad) {
    it(`names the bad field for ${JSON.stringify(value)}`, () => {
      let caught: unknown;
      try {
        parseAnswer(value);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(InvalidAnswerError);
      expect(isToolnexusError(caught)).toBe(true);
      expect((caught as InvalidAnswerError).code).toBe("invalid_answer");
      expect((caught as InvalidAnswerError).field).toBe(field);
      if (field) expect((caught as Error).message).toContain(`"${field}"`);
    });
  }

  it("keeps __proto__ out of every prototype", () => {
    const a = parseAnswer(
      JSON.parse(
        '{"id":"a","ok":true,"data":{"__proto__":{"polluted":1},"nested":{"__proto__":{"x":1}},"output":"ok"}}',
      ),
    );
    expect(a.data).toEqual({ nested: {}, output: "ok" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(a.data)).toBe(Object.prototype);
  });

  it("accepts a string-keyed answer from another port (Elixir seed, example 3)", () => {
    const fromElixir = roundTrip({ id: "q1", ok: true, data: { output: "Ada" } }) as Answer;
    expect(parseAnswer(fromElixir)).toEqual(answerOutput("q1", "Ada"));
  });
});

describe("parseRequest", () => {
  it("accepts a full Request", () => {
    const req = {
      id: "q1",
      kind: "question",
      prompt: "Pick?",
      url: "https://x",
      data: { a: 1 },
      expiresAt: "2030-01-01T00:00:00Z",
    };
    expect(parseRequest(roundTrip(req))).toEqual(req);
  });
  it("names the bad field", () => {
    expect(() => parseRequest({ id: "q1", prompt: "?" })).toThrow('"kind"');
    expect(() => parseRequest({ id: "q1", kind: "input", prompt: "?", expiresAt: "soon" })).toThrow('"expiresAt"');
  });
});
