// Secrets (docs/guide/reliability.md, "Secrets"): the API key and configured header values never reach a stored record, an error
// (message, body, record, cause), a stream event, a metric event, client.metrics(), or a warning —
// across halt, resume, conversations, provider errors, storage failures and refused resume tokens.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  createResumeToken,
  defineTool,
  memoryStorage,
  pending,
  type MetricEvent,
  type RunStorage,
  type StreamEvent,
} from "toolnexus";
import { captureWarnings, faulty } from "../../support/faults";
import { countingTool, faultyStorage } from "../../support/faulty-storage";
import { STYLES } from "../../support/drive";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";

const KEY = "sk-SECRET-apikey-0123456789abcdef";
const HEADER = "HDR-SECRET-headervalue-98765";
const TOKEN_SECRET = "RESUME-SECRET-signing-key-4242";
const FRAGMENTS = [KEY, HEADER, TOKEN_SECRET, "apikey-0123456789", "headervalue-98765", "signing-key-4242"];

/** Everything observable about an error, flattened: name, message, code, body, record, cause chain. */
function describeError(error: unknown, depth = 0): string {
  if (depth > 4 || error === undefined || error === null) return "";
  if (typeof error !== "object") return String(error);
  const e = error as Record<string, unknown>;
  const own = Object.getOwnPropertyNames(e).map((k) => `${k}=${typeof e[k] === "string" ? e[k] : ""}`);
  return [String(e.name), String(e.message), String(e.stack ?? ""), ...own, describeError(e.cause, depth + 1)].join(
    "\n",
  );
}

class Witness {
  readonly seen: string[] = [];
  readonly metrics: MetricEvent[] = [];
  add(label: string, value: unknown): void {
    this.seen.push(
      `${label}: ${typeof value === "string" ? value : JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v))}`,
    );
  }
  async error(label: string, promise: Promise<unknown>): Promise<void> {
    try {
      this.add(`${label} (resolved)`, await promise);
    } catch (error) {
      this.seen.push(`${label} (error): ${describeError(error)}`);
    }
  }
  async events(label: string, events: AsyncIterable<StreamEvent>): Promise<void> {
    const seen: StreamEvent[] = [];
    try {
      for await (const e of events) seen.push(e);
    } catch (error) {
      this.seen.push(`${label} (stream error): ${describeError(error)}`);
    }
    this.add(label, seen);
  }
  async storage(label: string, storage: RunStorage, keys: string[]): Promise<void> {
    for (const key of keys) this.add(`${label} ${key}`, (await storage.get(key)) ?? "");
  }
  /** `"<where>: <secret>"` for every secret found anywhere. */
  leaks(): string[] {
    const places = [...this.seen, `metric events: ${JSON.stringify(this.metrics)}`];
    return places.flatMap((text) =>
      FRAGMENTS.filter((f) => text.includes(f)).map((f) => `${text.slice(0, 60).split("\n")[0]}: ${f}`),
    );
  }
}

const echoBody = JSON.stringify({
  error: { message: `bad key ${KEY} with header ${HEADER}`, api_key: KEY, echo: `Bearer ${KEY}` },
});

for (const style of STYLES) {
  describe(`secrets (${style})`, () => {
    it("appear in no stored record, error, event, metric, metrics text or warning, across every scenario", async () => {
      const w = new Witness();
      const storage = faultyStorage(memoryStorage());
      const base = {
        baseUrl: "https://llm.test/v1",
        style,
        model: "m",
        apiKey: KEY,
        headers: { "x-secret": HEADER },
        retries: 1,
        retryBaseMs: 1,
        storage,
        resumeSecret: TOKEN_SECRET,
        onMetric: (e: MetricEvent) => void w.metrics.push(e),
      } as const;
      const { tool } = countingTool();
      const echo = defineTool({
        name: "echo",
        description: "",
        execute: (_a, ctx) => (ctx?.answer ? "echoed" : pending({ kind: "input", prompt: "?", id: "q-echo" })),
      });
      const toolkit = [tool, echo];
      const keys: string[] = [];
      const { warnings } = await captureWarnings(async () => {
        // halt, then resume (run and stream), with a resume token, then a replay of it
        const s = scripted(style, [
          { calls: [{ name: "book" }] },
          (b) => ({ text: toolResultsIn(b).join("|") }),
          { calls: [{ name: "echo" }] },
          { text: "fin" },
        ]);
        const client = createClient({ ...base, fetch: s.fetch, requestParams: { temperature: 0, messages: [] } });
        const halted = asPending(await client.run("book", { toolkit }));
        w.add("halted", halted);
        keys.push(`run:${halted.runId}`);
        await w.storage("after halt", storage, keys);
        const token = await createResumeToken({ runId: halted.runId, pending: halted.pending }, TOKEN_SECRET);
        await w.error("resumed", client.resume(halted.runId, answerOutput("q-book", "Ann"), { toolkit, token }));
        await w.storage("after resume", storage, keys);
        await w.error("replayed token", client.resume(halted.runId, answerOutput("q-book", "Ann"), { toolkit, token }));
        await w.error(
          "forged token",
          client.resume(halted.runId, answerOutput("q-book", "Ann"), { toolkit, token: `${token}x` }),
        );
        await w.events("streamed halt", client.stream("echo", { toolkit }));
        // a conversation that suspends, is resumed, and continues
        const c = scripted(style, [{ calls: [{ name: "echo" }] }, { text: "conv" }]);
        const conv = createClient({ ...base, fetch: c.fetch }).conversation({ id: "conv-1", toolkit });
        const pendingConv = asPending(await conv.send("hi"));
        keys.push("conversation:conv-1", `run:${pendingConv.runId}`);
        await w.error(
          "conversation resume",
          createClient({ ...base, fetch: c.fetch }).resume(pendingConv.runId, answerOutput("q-echo", "x"), {
            toolkit,
          }),
        );
        await w.storage("conversation", storage, keys);
        // provider errors: 401, 403, 429 (retried, then long Retry-After), 500, a 200 carrying an error object
        for (const fault of [
          { status: 401, body: echoBody },
          { status: 403, body: echoBody },
          { status: 429, body: echoBody, retryAfter: "999" },
          { status: 500, body: echoBody },
          { status: 400, body: `Bearer ${KEY} x-secret: ${HEADER}` },
        ]) {
          const f = faulty([fault, fault]);
          await w.error(`status ${fault.status}`, createClient({ ...base, fetch: f.fetch }).run("x", { toolkit }));
          await w.events(
            `streamed ${fault.status}`,
            createClient({ ...base, fetch: faulty([fault, fault]).fetch }).stream("x", { toolkit }),
          );
        }
        const errorReply = (async () =>
          Response.json(
            style === "openai" ? JSON.parse(echoBody) : { type: "error", error: JSON.parse(echoBody).error },
          )) as typeof fetch;
        await w.error("200 with an error object", createClient({ ...base, fetch: errorReply }).run("x"));
        // storage failures while halting and while resuming
        const broken = faultyStorage(memoryStorage());
        const b = scripted(style, [{ calls: [{ name: "book" }] }, { text: "x" }]);
        broken.fail("set", new Error("disk full"));
        await w.error(
          "StorageError on halt",
          createClient({ ...base, fetch: b.fetch, storage: broken }).run("x", { toolkit }),
        );
        broken.fail("get", new Error("partition"));
        await w.error(
          "StorageError on resume",
          createClient({ ...base, fetch: b.fetch, storage: broken }).resume("run-x", answerOutput("q", "y"), {
            toolkit,
          }),
        );
        // the run timed out; an aborted run
        const hang = faulty([{ hang: true }]);
        await w.error("timeout", createClient({ ...base, fetch: hang.fetch, timeoutMs: 20 }).run("x"));
        w.add("metrics text", createClient({ ...base, fetch: s.fetch }).metrics());
        w.add("metrics text (used client)", client.metrics());
      });
      w.add("warnings", warnings);
      expect(w.metrics.length).toBeGreaterThan(10);
      expect(w.seen.join("\n")).toContain("LlmHttpError"); // the scenarios really produced provider errors…
      expect(w.seen.join("\n")).toContain("StorageError"); // …and storage errors
      expect(w.seen.join("\n")).toContain("ResumeTokenError");
      expect(w.leaks()).toEqual([]);
    });
  });
}
