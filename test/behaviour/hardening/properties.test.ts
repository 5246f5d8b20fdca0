// Property-based tests (fast-check) of everything that reads untrusted bytes or JSON: the SSE parser, the
// Answer/Request validators, stored run records, and translate's inbound conversion. Runs in every runtime.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  InvalidAnswerError,
  isToolnexusError,
  memoryStorage,
  parseAnswer,
  parseRequest,
  pending,
  relayTool,
} from "toolnexus";
import { openAIMessagesToAnthropic, parseSSE, type SSEEvent } from "../../support/internals";
import { asPending } from "../../support/results";

const RUNS = { numRuns: 150 };

// ---- SSE ----

/** The WHATWG "Parsing an event stream" algorithm, written plainly over the whole text — the oracle. */
function referenceSSE(bytes: Uint8Array): SSEEvent[] {
  const text = new TextDecoder().decode(bytes);
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the text after the last line end is not a line: discarded at the end of the stream
  const out: SSEEvent[] = [];
  let data = "";
  let type = "";
  let lastId = "";
  for (const line of lines) {
    if (line === "") {
      if (data !== "") out.push({ event: type || "message", data: data.slice(0, -1), id: lastId || undefined });
      data = "";
      type = "";
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") data += `${value}\n`;
    else if (name === "event") type = value;
    else if (name === "id" && !value.includes("\0")) lastId = value;
  }
  return out;
}

function streamIn(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.slice(at, p));
    at = p;
  }
  return new ReadableStream({ pull: (c) => void (pieces.length ? c.enqueue(pieces.shift()!) : c.close()) });
}

async function parsed(stream: ReadableStream<Uint8Array>): Promise<SSEEvent[]> {
  const out: SSEEvent[] = [];
  for await (const e of parseSSE(stream)) out.push(e);
  return out;
}

const unit = fc.constantFrom("a", "b", "d", "t", "i", ":", " ", "é", "日", "😀", "\u0000", "{", '"');
const value = fc.string({ unit, maxLength: 10 });
const eol = fc.constantFrom("\n", "\r\n", "\r");
const sseLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("data:", "data: ", "data", "event:", "event: ", "id:", "id: ", "retry:", ":", "x:", "dat"),
      value,
    )
    .map(([f, v]) => f + v),
  fc.constant(""),
  value,
);
const sseText = fc.array(fc.tuple(sseLine, eol), { maxLength: 30 }).map((ls) => ls.map(([l, e]) => l + e).join(""));
const sseBytes = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.boolean(), sseText).map(([bom, t]) => new TextEncoder().encode((bom ? "\uFEFF" : "") + t)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

describe("property: parseSSE", () => {
  it("gives the spec's events, the same for every chunking of the same bytes", async () => {
    await fc.assert(
      fc.asyncProperty(sseBytes, fc.array(fc.nat(), { maxLength: 12 }), async (bytes, cuts) => {
        const expected = referenceSSE(bytes);
        expect(await parsed(streamIn(bytes, []))).toEqual(expected);
        expect(await parsed(streamIn(bytes, cuts))).toEqual(expected);
        expect(
          await parsed(
            streamIn(
              bytes,
              Array.from({ length: bytes.length }, (_, i) => i),
            ),
          ),
        ).toEqual(expected);
      }),
      RUNS,
    );
  });
});

// ---- parseAnswer / parseRequest ----

const hostileKey = fc.constantFrom("__proto__", "constructor", "prototype", "output", "results", "id", "ok", "data");
const anyValue = fc.anything({
  key: fc.oneof(fc.string(), hostileKey),
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
  maxDepth: 4,
});
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyValue);
const nearAnswer = fc.record(
  {
    id: maybe(fc.string({ maxLength: 6 })),
    ok: maybe(fc.boolean()),
    data: maybe(fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), hostileKey), fc.jsonValue({ maxDepth: 3 }))),
    reason: maybe(fc.constantFrom("declined", "cancelled", "expired", "nope")),
  },
  { requiredKeys: [] },
);
const nearRequest = fc.record(
  {
    id: maybe(fc.string({ maxLength: 6 })),
    kind: maybe(fc.constantFrom("input", "approval", "tool_call", "")),
    prompt: maybe(fc.string({ maxLength: 6 })),
    url: maybe(fc.webUrl()),
    data: maybe(fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), hostileKey), fc.jsonValue({ maxDepth: 3 }))),
    expiresAt: maybe(
      fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string({ maxLength: 8 }),
      ),
    ),
  },
  { requiredKeys: [] },
);
const fromJsonText = fc.json({ maxDepth: 4 }).map((t) => JSON.parse(t) as unknown);
const untrusted = (near: fc.Arbitrary<unknown>) => fc.oneof(near, fromJsonText, fc.jsonValue(), anyValue);

/** Valid, JSON-clean, and stable under a JSON round trip and a second parse. */
function checkParsed(parse: (v: unknown) => unknown, value: unknown): void {
  const json = JSON.stringify(value);
  expect(JSON.stringify(parse(JSON.parse(json)))).toBe(json);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
}

function outcome(parse: (v: unknown) => unknown, input: unknown): unknown {
  try {
    return parse(input);
  } catch (error) {
    expect(error instanceof InvalidAnswerError ? "InvalidAnswerError" : String(error)).toBe("InvalidAnswerError");
    return undefined;
  }
}

describe("property: parseAnswer and parseRequest", () => {
  it("parseAnswer returns a valid Answer or throws InvalidAnswerError — nothing else", () => {
    fc.assert(
      fc.property(untrusted(nearAnswer), (input) => {
        const a = outcome(parseAnswer, input) as ReturnType<typeof parseAnswer> | undefined;
        if (a === undefined) return;
        expect(typeof a.id === "string" && a.id !== "" && typeof a.ok === "boolean").toBe(true);
        if (a.ok) expect(a.reason).toBeUndefined();
        else if (a.reason !== undefined) expect(["declined", "cancelled", "expired"]).toContain(a.reason);
        checkParsed(parseAnswer, a);
      }),
      { numRuns: 300 },
    );
  });

  it("parseRequest returns a valid Request or throws InvalidAnswerError — nothing else", () => {
    fc.assert(
      fc.property(untrusted(nearRequest), (input) => {
        const r = outcome(parseRequest, input) as ReturnType<typeof parseRequest> | undefined;
        if (r === undefined) return;
        expect(
          typeof r.id === "string" &&
            r.id !== "" &&
            typeof r.kind === "string" &&
            r.kind !== "" &&
            typeof r.prompt === "string",
        ).toBe(true);
        if (r.expiresAt !== undefined) expect(Number.isNaN(Date.parse(r.expiresAt))).toBe(false);
        checkParsed(parseRequest, r);
      }),
      { numRuns: 300 },
    );
  });

  it("never lets a __proto__ key reach the returned data", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (inner) => {
        const raw = `{"id":"q","ok":true,"data":{"output":"x","__proto__":${JSON.stringify(inner)},"nested":{"__proto__":{"polluted":1}}}}`;
        const a = parseAnswer(JSON.parse(raw));
        expect(Object.keys(a.data!)).toEqual(["output", "nested"]);
        expect(Object.keys(a.data!.nested as object)).toEqual([]);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      RUNS,
    );
  });
});

// ---- stored run records ----

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

/** A provider that calls the given tools on its first turn and answers with text ever after. */
function provider(calls: string[]): typeof fetch {
  let n = 0;
  return (async () => {
    const message =
      n++ === 0
        ? {
            role: "assistant",
            content: null,
            tool_calls: calls.map((name, i) => ({
              id: `c${i}`,
              type: "function",
              function: { name, arguments: '{"q":1}' },
            })),
          }
        : { role: "assistant", content: "ok" };
    return Response.json({
      choices: [{ index: 0, message, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }) as typeof fetch;
}

function tools() {
  return [
    defineTool({
      name: "ask",
      description: "",
      inputSchema: { type: "object" },
      execute: (_a, ctx) => (ctx?.answer ? "answered" : pending({ kind: "input", prompt: "?", id: "q-ask" })),
    }),
    defineTool({ name: "clock", description: "", inputSchema: { type: "object" }, execute: () => "12:00" }),
    relayTool("lookup", "host side"),
  ];
}

/** Real records: halted (one call, three calls with a relay), and finished (status done, kept with its outcome). */
async function realRecords(): Promise<{ raw: string; answer: unknown }[]> {
  const out: { raw: string; answer: unknown }[] = [];
  for (const calls of [["ask"], ["ask", "clock", "lookup"]]) {
    const storage = memoryStorage();
    const halted = asPending(
      await createClient({ ...base, fetch: provider(calls), storage }).run("x", { toolkit: tools() }),
    );
    out.push({ raw: (await storage.get(`run:${halted.runId}`))!, answer: answerOutput("q-ask", "yes") });
  }
  const storage = memoryStorage();
  const client = createClient({ ...base, fetch: provider(["ask"]), storage });
  const halted = asPending(await client.run("x", { toolkit: tools() }));
  await client.resume(halted.runId, answerOutput("q-ask", "yes"), { toolkit: tools() });
  out.push({ raw: (await storage.get(`run:${halted.runId}`))!, answer: answerOutput("q-ask", "yes") });
  return out;
}

type Json = unknown;
const mutation = fc.oneof(
  // same JSON type, other value: the record still validates, but ids, statuses, counts and texts disagree
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("tweak" as const),
      path: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      seed: fc.string({ maxLength: 8 }),
      n: fc.integer({ min: -2, max: 5 }),
    }),
  },
  fc.record({
    op: fc.constant("set" as const),
    path: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom({}, [], null, "", -1, 1e308, "done", "claimed", "ready", "suspended"),
    ),
  }),
  fc.record({ op: fc.constant("delete" as const), path: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }) }),
);
const textMutation = fc.oneof(
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    op: fc.constant("splice" as const),
    at: fc.nat(),
    text: fc.string({
      unit: fc.constantFrom("{", "}", "[", "]", '"', ",", ":", "1", "a", "\\", "null") as fc.Arbitrary<string>,
      maxLength: 3,
    }),
  }),
);

/** Walks `path` (each step picks a key/index modulo the size), then sets or deletes the last step. */
type Mutation =
  | { op: "set" | "delete"; path: number[]; value?: Json }
  | { op: "tweak"; path: number[]; seed: string; n: number };

const statuses = ["suspended", "claimed", "ready", "done"];
function tweak(old: Json, m: { seed: string; n: number }): Json {
  if (typeof old === "number") return m.n;
  if (typeof old === "boolean") return !old;
  if (typeof old === "string") {
    if (statuses.includes(old)) return statuses[Math.abs(m.n) % 4]!;
    return m.n % 2 ? m.seed : `${old}${m.seed}`;
  }
  return old;
}

function mutate(root: Json, m: Mutation): void {
  let node = root as Record<string, Json> | Json[];
  for (let i = 0; i < m.path.length; i++) {
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const key = keys[m.path[i]! % keys.length]!;
    const last = i === m.path.length - 1;
    const child = (node as Record<string, Json>)[key];
    if (last || typeof child !== "object" || child === null) {
      if (m.op === "delete") delete (node as Record<string, Json>)[key];
      else (node as Record<string, Json>)[key] = m.op === "tweak" ? tweak(child, m) : m.value;
      return;
    }
    node = child as Record<string, Json>;
  }
}

describe("property: mutated stored run records", () => {
  it("either resume or throw a typed ToolnexusError — never a TypeError from inside the SDK", async () => {
    const records = await realRecords();
    const seen = { resumed: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: records.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.option(textMutation, { freq: 8 }),
        fc.nat({ max: 4 }).map((n) => n === 0),
        async (which, mutations, text, otherAnswer) => {
          const { raw, answer } = records[which]!;
          const value = JSON.parse(raw) as Json;
          for (const m of mutations) mutate(value, m);
          let stored = JSON.stringify(value);
          if (text?.op === "truncate") stored = stored.slice(0, text.at % (stored.length + 1));
          if (text?.op === "splice")
            stored = stored.slice(0, text.at % stored.length) + text.text + stored.slice(text.at % stored.length);
          const runId = (JSON.parse(raw) as { runId: string }).runId;
          const storage = memoryStorage();
          await storage.set(`run:${runId}`, stored);
          const client = createClient({ ...base, fetch: provider(["clock"]), storage, maxTurns: 3 });
          const a = otherAnswer ? { id: "q-other", ok: false, reason: "declined" } : answer;
          try {
            const result = await client.resume(runId, a as never, { toolkit: tools() });
            expect(["done", "pending", "incomplete"]).toContain(result.status);
            seen.resumed++;
          } catch (error) {
            expect(isToolnexusError(error) ? "typed" : `${String(error)} — stored: ${stored.slice(0, 400)}`).toBe(
              "typed",
            );
            seen.refused++;
          }
        },
      ),
      { numRuns: 200, timeout: 2000 },
    );
    // the mutations must exercise both sides: records that still resume, and records that are refused
    expect(seen.resumed).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 60_000);
});

// ---- translate ----

const callId = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("call_1", "__proto__", ""));
const toolCall = fc.record({
  id: callId,
  type: fc.constant("function"),
  function: fc.record({
    name: fc.string({ maxLength: 5 }),
    arguments: fc.oneof(
      fc.json({ maxDepth: 2 }),
      fc.string({ maxLength: 6 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
    ),
  }),
});
const content = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constant(null),
  fc.array(
    fc.oneof(fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 4 }) }), fc.string({ maxLength: 3 })),
    { maxLength: 2 },
  ),
);
const message = fc.oneof(
  fc.record({ role: fc.constantFrom("system", "developer", "user"), content }),
  fc.record(
    {
      role: fc.constant("assistant"),
      content,
      tool_calls: fc.option(fc.array(toolCall, { maxLength: 3 }), { nil: undefined }),
    },
    { requiredKeys: ["role"] },
  ),
  fc.record({ role: fc.constant("tool"), tool_call_id: callId, content }),
  fc.anything({ maxDepth: 2 }),
);

describe("property: openAIMessagesToAnthropic", () => {
  it("never drops, reorders or renames a tool call or a tool result", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const wantCalls: [string, string][] = [];
        const wantResults: string[] = [];
        for (const m of messages as Record<string, any>[]) {
          if (
            typeof m !== "object" ||
            m === null ||
            Array.isArray(m) ||
            ![Object.prototype, null].includes(Object.getPrototypeOf(m))
          )
            continue;
          if (m.role === "assistant" && Array.isArray(m.tool_calls))
            for (const c of m.tool_calls) wantCalls.push([c.id, c.function.name]);
          if (m.role === "tool") wantResults.push(m.tool_call_id);
        }
        const out = openAIMessagesToAnthropic(messages).messages as { role: string; content: unknown }[];
        const blocks = out.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : []));
        expect(blocks.filter((b) => b.type === "tool_use").map((b) => [b.id, b.name])).toEqual(wantCalls);
        expect(blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)).toEqual(wantResults);
        for (const b of blocks.filter((x) => x.type === "tool_use"))
          expect(typeof b.input === "object" && b.input !== null && !Array.isArray(b.input)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
