// relayTool and readRelayAnswer: the host runs relayed calls and answers with data.results or data.output.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  answerDeclined,
  answerOutput,
  InvalidAnswerError,
  pendingOf,
  relayAnswer,
  relayTool,
  type Answer,
} from "toolnexus";
import { readRelayAnswer } from "../../support/internals";
import { toolCtx } from "../../support/tool-context";

const lookup = relayTool("lookup", "host-side lookup", {
  type: "object",
  properties: { q: { type: "string" } },
  required: ["q"],
});
const calls = [
  { id: "r1", name: "lookup" },
  { id: "r2", name: "fetch_user" },
];
const ok = (data?: Record<string, unknown>): Answer => ({ id: "req-1", ok: true, ...(data ? { data } : {}) });

function thrown(fn: () => unknown): InvalidAnswerError {
  try {
    fn();
  } catch (error) {
    // readRelayAnswer is internal (reached from the sources), so match the error by name and code
    expect((error as InvalidAnswerError).name).toBe("InvalidAnswerError");
    expect((error as InvalidAnswerError).code).toBe("invalid_answer");
    return error as InvalidAnswerError;
  }
  throw new Error("expected a throw");
}

describe("relayTool: declaration and first execution", () => {
  it("is a relay tool declared like any other (default schema: any object)", () => {
    expect(lookup.source).toBe("relay");
    expect(lookup.name).toBe("lookup");
    expect(lookup.description).toBe("host-side lookup");
    expect(lookup.inputSchema).toEqual({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    expect(relayTool("any", "d").inputSchema).toEqual({ type: "object", properties: {} });
    expect(() => relayTool("", "d")).toThrow(ConfigError);
  });

  it("suspends with kind tool_call carrying the call (id from ctx.callId, input, raw arguments)", async () => {
    const result = await lookup.execute({ q: "tea" }, toolCtx({ callId: "call_9" }));
    const prompt = "relay tool call lookup to the caller for execution";
    expect(result.isError).toBe(true);
    expect(result.output).toBe(prompt);
    expect(pendingOf(result)).toMatchObject({
      kind: "tool_call",
      prompt,
      data: { calls: [{ id: "call_9", name: "lookup", input: { q: "tea" }, arguments: '{"q":"tea"}' }] },
    });
  });

  it("the relayed call carries the ctx's call id", async () => {
    const request = pendingOf(await relayTool("any", "d").execute({ x: [1] }, toolCtx()));
    expect(request?.data).toEqual({
      calls: [{ id: "call-test", name: "any", input: { x: [1] }, arguments: '{"x":[1]}' }],
    });
  });

  it("checks the arguments before suspending", async () => {
    expect(await lookup.execute({ q: 3 }, toolCtx({ callId: "c" }))).toEqual({
      output: "Invalid arguments for lookup: q: expected string, got number",
      isError: true,
    });
  });
});

describe("relayTool: re-executed with the answer", () => {
  it("a declined answer is an error result naming the reason", async () => {
    expect(await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: answerDeclined("req-1") }))).toEqual({
      output: "relay declined for lookup: declined",
      isError: true,
    });
    expect(
      (await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: answerDeclined("req-1", "expired") }))).output,
    ).toBe("relay declined for lookup: expired");
    expect(
      (await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: { id: "req-1", ok: false } }))).output,
    ).toBe("relay declined for lookup: declined");
  });

  it("answerOutput and relayAnswer supply the result", async () => {
    expect(await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: answerOutput("req-1", "found") }))).toEqual({
      output: "found",
      isError: false,
    });
    expect(
      await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: answerOutput("req-1", "boom", true) })),
    ).toEqual({
      output: "boom",
      isError: true,
    });
    const answer = relayAnswer("req-1", [
      { id: "other", output: "no" },
      { id: "c", output: "yes", isError: false },
    ]);
    expect(await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer }))).toEqual({
      output: "yes",
      isError: false,
    });
  });

  it("a relayAnswer whose results all name other calls is refused — the host's outputs are never dropped silently", async () => {
    const answer = relayAnswer("req-1", [{ id: "other", output: "no" }]);
    const error = await lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as InvalidAnswerError).field).toBe("data.results");
    expect((error as Error).message).toContain('"c"');
  });

  it("an unreadable answer rejects with InvalidAnswerError — it is never turned into a result for the model", async () => {
    await expect(lookup.execute({ q: "x" }, toolCtx({ callId: "c", answer: ok({ value: "x" }) }))).rejects.toThrow(
      InvalidAnswerError,
    );
  });
});

describe("readRelayAnswer", () => {
  it("data.results, matched by id, in the calls' order; a call with no result gets the filler", () => {
    const results = readRelayAnswer(
      relayAnswer("req-1", [
        { id: "r2", output: "B", isError: true },
        { id: "r1", output: "A" },
      ]),
      calls,
    );
    expect(results).toEqual([
      { output: "A", isError: false },
      { output: "B", isError: true },
    ]);
    expect(readRelayAnswer(relayAnswer("req-1", [{ id: "r1", output: "A" }]), calls)[1]).toEqual({
      output: "no result supplied on resume for fetch_user",
      isError: true,
    });
  });

  it("data.output answers the first call (data.isError optional); results take precedence", () => {
    expect(readRelayAnswer(answerOutput("req-1", "only"), calls)).toEqual([
      { output: "only", isError: false },
      { output: "no result supplied on resume for fetch_user", isError: true },
    ]);
    expect(readRelayAnswer(answerOutput("req-1", "bad", true), calls)[0]).toEqual({
      output: "bad",
      isError: true,
    });
    expect(readRelayAnswer(ok({ output: "ignored", results: [{ id: "r1", output: "wins" }] }), calls)[0]).toEqual({
      output: "wins",
      isError: false,
    });
  });

  it("reads an answer that went through JSON", () => {
    const answer = JSON.parse(
      JSON.stringify(
        relayAnswer("req-1", [
          { id: "r1", output: "A" },
          { id: "r2", output: "B" },
        ]),
      ),
    ) as Answer;
    expect(readRelayAnswer(answer, calls).map((r) => r.output)).toEqual(["A", "B"]);
  });

  it("a declined answer declines every call", () => {
    expect(readRelayAnswer(answerDeclined("req-1", "cancelled"), calls)).toEqual([
      { output: "relay declined for lookup: cancelled", isError: true },
      { output: "relay declined for fetch_user: cancelled", isError: true },
    ]);
  });

  it("no readable payload: InvalidAnswerError naming answerOutput/relayAnswer and the sorted keys, never the values", () => {
    const error = thrown(() => readRelayAnswer(ok({ value: "staging-secret", answers: ["x"] }), calls));
    expect(error.field).toBe("data");
    expect(error.message).toBe(
      "toolnexus: cannot resume — answer.ok is true but its data carries no result the engine can read (expected data.output as a string, or data.results as an array of {id, output, isError}); build it with answerOutput(id, output) or relayAnswer(id, results). Keys seen: [answers, value]",
    );
    expect(error.message).not.toContain("staging-secret");
    expect(thrown(() => readRelayAnswer(ok(), calls)).message).toContain("Keys seen: []");
    expect(thrown(() => readRelayAnswer(ok({}), calls)).message).toContain("Keys seen: []");
  });

  it("refuses results that name none of the request's calls, naming the ids on both sides", () => {
    const error = thrown(() => readRelayAnswer(relayAnswer("req-1", [{ id: "elsewhere", output: "A" }]), calls));
    expect(error.field).toBe("data.results");
    expect(error.message).toBe(
      'toolnexus: cannot resume — answer data.results names ["elsewhere"], none a call of this request (["r1","r2"])',
    );
  });

  for (const [data, field, message] of [
    [
      { results: "A" },
      "data.results",
      "data.results is string, want an array of {id, output, isError} (build it with relayAnswer(id, results))",
    ],
    [
      { results: [{ id: "r1", output: "A" }, null] },
      "data.results[1]",
      "data.results[1] is null, want an object {id, output, isError}",
    ],
    [
      {
        results: [
          { id: "r1", output: "A" },
          { id: "r2", output: 42 },
        ],
      },
      "data.results[1].output",
      "data.results[1].output is number, want a string",
    ],
    [{ results: [{ output: "A" }] }, "data.results[0].id", "data.results[0].id is undefined, want a string"],
    [
      { results: [{ id: "r1", output: "A", isError: "yes" }] },
      "data.results[0].isError",
      "data.results[0].isError is string, want a boolean",
    ],
    [{ output: ["A"] }, "data.output", "data.output is array, want a string (build it with answerOutput(id, output))"],
    [{ output: null }, "data.output", "data.output is null, want a string (build it with answerOutput(id, output))"],
    [{ output: "A", isError: 1 }, "data.isError", "data.isError is number, want a boolean"],
  ] as const) {
    it(`refuses ${JSON.stringify(data)} naming ${field}`, () => {
      const error = thrown(() => readRelayAnswer(ok(data as Record<string, unknown>), calls));
      expect(error.field).toBe(field);
      expect(error.message).toBe(`toolnexus: cannot resume — answer ${message}`);
    });
  }
});
