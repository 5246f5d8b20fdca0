// Hostile objects handed to parseAnswer, parseRequest and resume (docs/guide/reliability.md, "Hostile values"): a
// getter, a Proxy trap or a revoked Proxy that throws, a toJSON that throws, a value that changes between
// reads, a huge or deep one. Each is an InvalidAnswerError naming the field — never the object's own error —
// and the stored run is unchanged.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  InvalidAnswerError,
  memoryStorage,
  parseAnswer,
  parseRequest,
  pending,
} from "toolnexus";
import { scripted } from "../../support/scripted";
import { asPending } from "../../support/results";

const MB = 1024 * 1024;
const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);

/** A tool that suspends once with the Request "q", and records what it was re-run with. */
function probe() {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: "probe",
    description: "suspends once",
    execute: (_args, ctx) => {
      seen.push(ctx.answer);
      return ctx.answer ? "ok" : pending({ kind: "input", prompt: "more?", id: "q" });
    },
  });
  return { tool, seen };
}

describe("hostile objects handed to parseAnswer and parseRequest", () => {
  const OWN = "the object's own error";
  const boom = (): never => {
    throw new Error(OWN);
  };
  const revoked = () => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    return r.proxy;
  };
  /** The field an InvalidAnswerError names, after checking that nothing of the object's own error escaped. */
  function fieldOf(parse: (v: unknown) => unknown, value: unknown): string {
    let error: unknown;
    try {
      parse(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidAnswerError);
    expect((error as InvalidAnswerError).code).toBe("invalid_answer");
    expect((error as Error).message).not.toContain(OWN);
    expect((error as Error).cause).toBeUndefined();
    return (error as InvalidAnswerError).field;
  }

  it("a getter, a Proxy trap or a revoked Proxy that throws is an InvalidAnswerError naming the field", () => {
    const cases: [unknown, string][] = [
      [
        {
          id: "q",
          get ok() {
            return boom();
          },
        },
        "ok",
      ],
      [
        {
          id: "q",
          ok: true,
          data: {
            city: "x",
            get zip() {
              return boom();
            },
          },
        },
        "data.zip",
      ],
      [{ id: "q", ok: true, data: { list: [1, new Proxy({}, { ownKeys: boom })] } }, "data.list[1]"],
      [{ id: "q", ok: true, data: { list: new Proxy([1, 2], { get: boom }) } }, "data.list"],
      [new Proxy({}, { get: boom }), "id"],
      [new Proxy({}, { getPrototypeOf: boom }), ""],
      [revoked(), ""],
      [{ id: "q", ok: true, data: { inner: revoked() } }, "data.inner"],
      [{ id: "q", ok: true, data: revoked() }, "data"],
    ];
    for (const [value, field] of cases) expect({ field: fieldOf(parseAnswer, value) }).toEqual({ field });
    const request = {
      id: "q",
      kind: "input",
      get prompt() {
        return boom();
      },
    };
    expect(fieldOf(parseRequest, request)).toBe("prompt");
    expect(fieldOf(parseRequest, { id: "q", kind: "input", prompt: "?", data: new Proxy({}, { ownKeys: boom }) })).toBe(
      "data",
    );
  });

  it("a toJSON that throws is never called: in data it is a function JSON cannot carry; on the answer it is dropped", () => {
    expect(fieldOf(parseAnswer, { id: "q", ok: true, data: { x: { toJSON: boom } } })).toBe("data.x.toJSON");
    const parsed = parseAnswer({ id: "q", ok: true, toJSON: boom, data: { output: "Pune" } });
    expect(JSON.parse(JSON.stringify(parsed))).toEqual({ id: "q", ok: true, data: { output: "Pune" } });
  });

  it("a Proxy that answers differently on each read is read once: what was checked is what comes back", () => {
    let reads = 0;
    const shifty = new Proxy(
      { id: "q", ok: true },
      {
        get: (target, key) => (key === "id" && reads++ > 0 ? 42 : Reflect.get(target, key)),
      },
    );
    const parsed = parseAnswer(shifty);
    expect(parsed).toEqual({ id: "q", ok: true });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it("a huge value is an InvalidAnswerError naming where it grew too large, found without reading it all", () => {
    const endless = new Proxy([], { get: (t, k) => (k === "length" ? 2 ** 32 - 1 : Reflect.get(t, k)) });
    expect(fieldOf(parseAnswer, { id: "q", ok: true, data: { endless } })).toBe("data.endless");
    const big = "x".repeat(9 * MB);
    expect(fieldOf(parseAnswer, { id: "q", ok: true, data: { a: big, b: big } })).toBe("data.b");
    expect(parseAnswer({ id: "q", ok: true, data: { a: big } }).data?.a).toBe(big);
    expect(fieldOf(parseAnswer, { id: "q", ok: true, data: nested(100) as Record<string, unknown> })).toMatch(
      /^data(\.a)+$/,
    );
  });

  it("a hostile answer handed to resume is refused with InvalidAnswerError and the stored run is unchanged", async () => {
    const storage = memoryStorage();
    const p = probe();
    const s = scripted("openai", [{ calls: [{ name: "probe" }] }, { text: "fine" }]);
    const client = createClient({
      baseUrl: "https://llm.test/v1",
      style: "openai",
      model: "m",
      fetch: s.fetch,
      storage,
    });
    const halted = asPending(await client.run("x", { toolkit: [p.tool] }));
    const before = await storage.get(`run:${halted.runId}`);
    const hostile = [
      {
        id: "q",
        ok: true,
        data: {
          get output() {
            return boom();
          },
        },
      },
      new Proxy({}, { get: boom }),
      revoked(),
    ];
    for (const answer of hostile)
      await expect(client.resume(halted.runId, answer as never, { toolkit: [p.tool] })).rejects.toThrow(
        InvalidAnswerError,
      );
    expect(await storage.get(`run:${halted.runId}`)).toBe(before);
    expect(p.seen).toHaveLength(1);
    expect((await client.resume(halted.runId, answerOutput("q", "ok"), { toolkit: [p.tool] })).text).toBe("fine");
  });
});
