// The SSE parser (WHATWG HTML "Parsing an event stream"): line endings, fields, dispatch, UTF-8 —
// the same events however the bytes are cut into chunks.
import { describe, expect, it } from "vitest";
import { parseSSE, type SSEEvent } from "../../support/internals";
import { createSSEParser } from "../../support/wire-internals";
import { bytesOf, cancellable, collect, cutAt, everySplit, streamOf, streamOfPieces } from "../../support/wire-streams";

const events = (stream: ReadableStream<Uint8Array>): Promise<SSEEvent[]> => collect(parseSSE(stream));

// Every rule at once: CRLF, CR and LF endings, comments, keep-alives, event/id/retry fields, multi-line
// data, one leading space stripped (only one), multi-byte UTF-8 ("é", "🙂"), and a cut-off last event.
const SAMPLE =
  ": a comment\r\n" +
  "event: greet\r\n" +
  "data: héllo 🙂\r\n" +
  "data:  two spaces\r" +
  "id: 7\r\n" +
  "\r\n" +
  "data\n\n" +
  "data:x\nevent:\n\n" +
  ":keep-alive\n\n" +
  'retry: 1500\nunknown: field\nid: 8\ndata: {"a":"ü"}\n\n' +
  "event: last\ndata: cut off before its blank line";

const EXPECTED: SSEEvent[] = [
  { event: "greet", data: "héllo 🙂\n two spaces", id: "7" },
  { event: "message", data: "", id: "7" },
  { event: "message", data: "x", id: "7" },
  { event: "message", data: '{"a":"ü"}', id: "8" },
];

describe("parseSSE", () => {
  it("reads every field rule of the spec", async () => {
    expect(await events(streamOf(SAMPLE))).toEqual(EXPECTED);
  });

  it("gives the same events fed byte by byte", async () => {
    expect(await events(streamOf(SAMPLE, 1))).toEqual(EXPECTED);
  });

  it("gives the same events at every split point (CRLF and multi-byte characters cut in two)", async () => {
    const splits = everySplit(SAMPLE);
    expect(bytesOf(SAMPLE).length).toBeGreaterThan(SAMPLE.length); // it really has multi-byte characters
    for (const { at, stream } of splits) {
      expect({ at, got: await events(stream()) }).toEqual({ at, got: EXPECTED });
    }
  });

  it("decodes a 4-byte character cut into every possible pair of pieces", async () => {
    const bytes = bytesOf("data: 🙂é🙂\n\n");
    for (let a = 1; a < bytes.length; a++) {
      for (let b = a; b < bytes.length; b++) {
        const got = await events(streamOfPieces(cutAt(bytes, [a, b])));
        expect(got).toEqual([{ event: "message", data: "🙂é🙂" }]);
      }
    }
  });

  it("joins data lines with \\n and follows the spec's examples", async () => {
    expect(await events(streamOf("data: YHOO\ndata: +2\ndata: 10\n\n"))).toEqual([
      { event: "message", data: "YHOO\n+2\n10" },
    ]);
    expect(await events(streamOf("data:test\n\ndata: test\n\n"))).toEqual([
      { event: "message", data: "test" },
      { event: "message", data: "test" },
    ]);
    // "data\n\ndata\ndata\n\ndata:" ⇒ "", "\n", and the last is never dispatched
    expect(await events(streamOf("data\n\ndata\ndata\n\ndata:"))).toEqual([
      { event: "message", data: "" },
      { event: "message", data: "\n" },
    ]);
  });

  it("treats a lone CR as a line end and CRLF as one line end", async () => {
    expect(await events(streamOf("data: a\rdata: b\r\rdata: c\r\n\r\n"))).toEqual([
      { event: "message", data: "a\nb" },
      { event: "message", data: "c" },
    ]);
    // a CR that ends one chunk and an LF that starts the next are one line end, not two
    expect(await events(streamOfPieces(cutAt(bytesOf("data: a\r\ndata: b\r\n\r\n"), [8])))).toEqual([
      { event: "message", data: "a\nb" },
    ]);
  });

  it("does not dispatch an event whose blank line never came", async () => {
    expect(await events(streamOf("data: complete\n\ndata: partial\n"))).toEqual([
      { event: "message", data: "complete" },
    ]);
    expect(await events(streamOf("data: partial"))).toEqual([]);
  });

  it("drops a leading byte-order mark and only that", async () => {
    expect(await events(streamOf("\uFEFFdata: x\n\n"))).toEqual([{ event: "message", data: "x" }]);
    expect(await events(streamOfPieces(cutAt(bytesOf("\uFEFFdata: x\n\n"), [1, 2])))).toEqual([
      { event: "message", data: "x" },
    ]);
  });

  it("keeps the last event id until an empty id resets it, and ignores ids with NUL", async () => {
    const got = await events(streamOf("id: 1\ndata: a\n\ndata: b\n\nid: 2\u0000\ndata: c\n\nid\ndata: d\n\n"));
    expect(got).toEqual([
      { event: "message", data: "a", id: "1" },
      { event: "message", data: "b", id: "1" },
      { event: "message", data: "c", id: "1" },
      { event: "message", data: "d" },
    ]);
  });

  it("resets the event type after a blank line, even without data", async () => {
    expect(await events(streamOf("event: ping\n\ndata: x\n\n"))).toEqual([{ event: "message", data: "x" }]);
  });

  it("ignores fields it does not know and compares field names literally", async () => {
    expect(await events(streamOf("Data: no\nDATA: no\nfoo: bar\ndata : no\ndata: yes\n\n"))).toEqual([
      { event: "message", data: "yes" },
    ]);
  });

  it("reads a long line delivered in many small pieces", async () => {
    const payload = `${"x".repeat(50_000)}é`;
    expect(await events(streamOf(`data: ${payload}\n\n`, 7))).toEqual([{ event: "message", data: payload }]);
  });

  it("decodes one large chunk full of multi-byte characters", async () => {
    const payload = "é🙂x".repeat(20_000); // 140 kB in a single chunk
    const text = `data: ${payload}\n\nevent: ü\ndata: 🙂\n\n`;
    expect(await events(streamOf(text))).toEqual([
      { event: "message", data: payload },
      { event: "ü", data: "🙂" },
    ]);
  });

  it("reads many events in one chunk and events across many chunks the same way", async () => {
    const text = Array.from({ length: 300 }, (_, i) => `id: ${i}\nevent: e${i % 3}\ndata: ${i}\n\n`).join("");
    const whole = await events(streamOf(text));
    expect(whole).toHaveLength(300);
    expect(whole[299]).toEqual({ event: "e2", data: "299", id: "299" });
    expect(await events(streamOf(text, 13))).toEqual(whole);
  });

  it("cancels the stream when the consumer stops early", async () => {
    const { stream, cancelled } = cancellable("data: one\n\ndata: two\n\n");
    for await (const event of parseSSE(stream)) {
      expect(event.data).toBe("one");
      break;
    }
    expect(cancelled()).toBe(true);
  });

  it("lets go of the stream at its end, and stays done after it (or after return)", async () => {
    const stream = streamOf("data: one\n\n");
    const sse = parseSSE(stream);
    expect((await sse.next()).value).toMatchObject({ data: "one" });
    expect((await sse.next()).done).toBe(true);
    expect(stream.locked).toBe(false);
    expect((await sse.next()).done).toBe(true);

    const early = parseSSE(streamOf("data: one\n\ndata: two\n\n"));
    await early.next();
    expect(await early.return!()).toEqual({ done: true, value: undefined });
    expect((await early.next()).done).toBe(true); // "two" was read with "one", and is not given after return
  });

  it("passes a read error through unchanged, after the events that came before it", async () => {
    const failure = new TypeError("network lost");
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(failure);
        sent = true;
        controller.enqueue(new TextEncoder().encode("data: one\n\n"));
      },
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of parseSSE(stream)) seen.push(event.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["one"]);
    expect(error).toBe(failure);
  });
});

describe("createSSEParser (internal push parser)", () => {
  it("returns the event the stream cut off instead of dispatching it", () => {
    const got: SSEEvent[] = [];
    const parser = createSSEParser((e) => got.push(e));
    parser.feed("data: one\n\nevent: end\ndata: [DO");
    parser.feed("NE]");
    expect(got).toEqual([{ event: "message", data: "one" }]);
    expect(parser.end()).toEqual({ event: "end", data: "[DONE]" });
    expect(parser.end()).toBeUndefined();
  });

  it("skips retry fields (its readers never reconnect)", () => {
    const got: SSEEvent[] = [];
    const parser = createSSEParser((e) => got.push(e));
    parser.feed("retry: 250\ndata: a\nretry:3000\n\n");
    expect(got).toEqual([{ event: "message", data: "a" }]);
  });

  it("keeps a CR and the LF after it one line end across an empty piece between them", () => {
    const got: SSEEvent[] = [];
    const parser = createSSEParser((e) => got.push(e));
    for (const piece of ["data: a\r", "", "\ndata: b\r", "\n", "", "\r\n"]) parser.feed(piece);
    expect(got).toEqual([{ event: "message", data: "a\nb" }]);
  });
});

describe("a line without end", () => {
  it("a line, or one event's data, past the parser's bound is refused, however it is cut", () => {
    const seen: SSEEvent[] = [];
    const parser = createSSEParser((e) => void seen.push(e), 100);
    parser.feed(`data: ${"a".repeat(90)}\n\n`);
    expect(seen).toHaveLength(1);
    expect(() => {
      for (let i = 0; i < 20; i++) parser.feed("b".repeat(10)); // a line that never ends
    }).toThrow(RangeError);
    const lines = createSSEParser(() => {}, 100);
    // each line short, the event's data (joined by newlines) past the bound
    expect(() => lines.feed(`${"data: xxxxxxxxx\n".repeat(30)}\n`)).toThrow(/over 100 characters/);
    const crlf = createSSEParser(() => {}, 100);
    expect(() => crlf.feed(`data: ok\r\n${"c".repeat(200)}`)).toThrow(RangeError);
  });
});
