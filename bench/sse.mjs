// 4. SSE throughput: our parser vs eventsource-parser on the same ~10 MB OpenAI-style stream.
// "feed": the decoded text, cut at byte chunk boundaries, fed to each push parser (decoding is done
// beforehand and not timed). "stream": the whole path from a ReadableStream of bytes to events —
// our parseSSE vs TextDecoderStream + EventSourceParserStream.
import { createParser } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { requireOurs } from "./ours.mjs";
import { alternate, fmtBytes, isMeasured, ratio, sig, stats, table } from "./lib.mjs";

const CHUNKS = [64, 1024, 16 * 1024, 256 * 1024];

/** An OpenAI chat-completions stream of about `bytes` bytes, ending with `data: [DONE]`. */
export function openAIStream(bytes) {
  const words = [
    "The",
    " quick",
    " brown",
    " fox",
    " jumps",
    " over",
    " the",
    " lazy",
    " dog",
    ".",
    " Ünïcødé",
    " ✓",
    "\\n",
  ];
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const chunk = {
      id: "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
      object: "chat.completion.chunk",
      created: 1741569952,
      model: "gpt-4o-2024-08-06",
      system_fingerprint: "fp_44709d6fcb",
      choices: [{ index: 0, delta: { content: words[i % words.length] }, logprobs: null, finish_reason: null }],
    };
    const line = `data: ${JSON.stringify(chunk)}\n\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  parts.push("data: [DONE]\n\n");
  return { bytes: new TextEncoder().encode(parts.join("")), events: parts.length };
}

function cut(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

function decodeChunks(chunks) {
  const decoder = new TextDecoder();
  return chunks.map((c) => decoder.decode(c, { stream: true }));
}

function byteStream(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

export async function bench({ smoke }) {
  const ours = await requireOurs(["createSSEParser", "parseSSE"]);
  const size = smoke ? 64 * 1024 : 10 * 1024 * 1024;
  const { bytes, events } = openAIStream(size);
  const plan = smoke ? { warmup: 0, repeats: 1 } : { warmup: 3, repeats: 15 };
  const streamPlan = smoke ? plan : { warmup: 1, repeats: 5 };
  const rows = [];
  const results = {};
  const checks = [];
  for (const chunkSize of CHUNKS) {
    const chunks = cut(bytes, chunkSize);
    const texts = decodeChunks(chunks);
    const counted = {};
    const feed = await alternate(
      [
        { name: "ours", fn: () => void (counted.ours = feedOurs(ours, texts)) },
        { name: "eventsource-parser", fn: () => void (counted.peer = feedPeer(texts)) },
      ],
      plan,
    );
    const stream = await alternate(
      [
        { name: "ours", fn: async () => void (counted.oursStream = await streamOurs(ours, chunks)) },
        { name: "eventsource-parser", fn: async () => void (counted.peerStream = await streamPeer(chunks)) },
      ],
      streamPlan,
    );
    const r = { feed: mbps(feed, bytes.length), stream: mbps(stream, bytes.length) };
    results[chunkSize] = r;
    for (const [mode, m] of Object.entries(r)) {
      rows.push([
        fmtBytes(chunkSize),
        mode,
        spread(m.ours),
        spread(m["eventsource-parser"]),
        `**${ratio(m.ours.median, m["eventsource-parser"].median)}**`,
      ]);
    }
    const ok = Object.keys(counted).length === 4 && Object.values(counted).every((n) => n === events);
    checks.push({
      name: `sse: ${fmtBytes(chunkSize)} chunks, all ${events} events seen by both`,
      ok: ok && isMeasured(r.feed.ours.median) && isMeasured(r.stream.ours.median),
      detail: JSON.stringify(counted),
    });
  }
  const text = [
    "**feed**: the decoded text, cut at byte-chunk boundaries, pushed into each parser (`createSSEParser(onEvent).feed` vs eventsource-parser `createParser({ onEvent }).feed`; decoding not timed). " +
      "**stream**: bytes → events the way each is used on a `fetch` body: our `parseSSE(body)` vs `body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())`.",
    "",
    `Stream: ${fmtBytes(bytes.length)} of \`data: {chat.completion.chunk}\\n\\n\` lines (${events.toLocaleString("en")} events, with multi-byte text), MB/s = 10⁶ bytes per second, higher is better.`,
    "",
    table(["Chunk", "Mode", "ours MB/s", "eventsource-parser MB/s", "ours / peer"], rows),
  ].join("\n");
  const worst = Math.min(
    ...Object.values(results).flatMap((r) =>
      [r.feed, r.stream].map((m) => m.ours.median / m["eventsource-parser"].median),
    ),
  );
  const goals = [
    {
      goal: "SSE throughput ≥ 1× eventsource-parser (every chunk size, both modes)",
      measured: `worst case ${sig(worst)}×`,
      met: worst >= 1,
    },
  ];
  return { id: "sse", title: "4. SSE parsing throughput (goal ≥ 1×)", text, results, checks, goals };
}

function feedOurs(ours, texts) {
  let n = 0;
  const parser = ours.createSSEParser(() => n++);
  for (const t of texts) parser.feed(t);
  parser.end();
  return n;
}

function feedPeer(texts) {
  let n = 0;
  const parser = createParser({ onEvent: () => n++ });
  for (const t of texts) parser.feed(t);
  return n;
}

async function streamOurs(ours, chunks) {
  let n = 0;
  for await (const _ of ours.parseSSE(byteStream(chunks))) n++;
  return n;
}

async function streamPeer(chunks) {
  let n = 0;
  const events = byteStream(chunks).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const _ of events) n++;
  return n;
}

// ms per pass → MB/s (so the median of throughputs is 1 / the median time; p25/p75 swap)
function mbps(samples, length) {
  const out = {};
  for (const [name, ms] of Object.entries(samples)) out[name] = stats(ms.map((t) => length / 1e6 / (t / 1000)));
  return out;
}

function spread(s) {
  return `${sig(s.median)} (${sig(s.p25)}–${sig(s.p75)})`;
}
