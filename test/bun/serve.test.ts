// Bun-only: examples/bun/serve.ts as a user runs it (`bun serve.ts`, here on a free loopback port), driven
// over HTTP — a streamed run halts, an answer resumes it, a second answer and a malformed one are
// refused — and the npm entry (dist/index.js with its lazily loaded chunks) running a halt → resume.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readEventStream, type StreamEvent } from "toolnexus";

const root = new URL("../../", import.meta.url).pathname;
let server: { kill(): void } | undefined;
let base = "";

beforeAll(async () => {
  const args = [
    process.execPath,
    "--no-install",
    "--tsconfig-override=test/bun/bundle.tsconfig.json",
    "examples/bun/serve.ts",
  ];
  const child = Bun.spawn(args, { cwd: root, env: { ...process.env, PORT: "0" }, stdout: "pipe", stderr: "inherit" });
  server = child;
  const reader = child.stdout.getReader();
  let log = "";
  while (!/listening on/.test(log)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve.ts exited before listening:\n${log}`);
    log += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  base = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1] ?? "";
  expect(base).not.toBe("");
});
afterAll(() => server?.kill());

const post = (path: string, body: unknown) => fetch(base + path, { method: "POST", body: JSON.stringify(body) });
async function events(res: Response): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of readEventStream(res)) out.push(event);
  return out;
}
const resultOf = (list: StreamEvent[]) => {
  const last = list.at(-1);
  if (last?.type !== "done") throw new Error(`the stream did not end with done: ${JSON.stringify(list)}`);
  return last.result;
};

describe("examples/bun/serve.ts under Bun.serve", () => {
  it("streams a run that halts on the tool's question, then resumes it with the answer", async () => {
    const first = await events(await post("/chat", { prompt: "What's the weather?" }));
    expect(first.map((e) => e.type)).toContain("pending");
    const halted = resultOf(first);
    expect(halted.status).toBe("pending");
    if (halted.status !== "pending") return;
    expect(halted.pending?.prompt).toBe("Which city?");

    const answer = { id: halted.pending?.id, ok: true, data: { output: "Chennai" } };
    const done = resultOf(await events(await post("/answer", { runId: halted.runId, answer })));
    expect(done.status).toBe("done");
    expect(done.text).toBe("Forecast: 31 °C and humid in Chennai");

    // exactly once: another answer to the same Request is refused
    const other = { ...answer, data: { output: "Lima" } };
    await expect(events(await post("/answer", { runId: halted.runId, answer: other }))).rejects.toThrow(
      /run_conflict|already/,
    );
  });

  it("answers a malformed answer with 400 and an unknown run with an error", async () => {
    expect((await post("/answer", { runId: "run-x", answer: { ok: true } })).status).toBe(400);
    const answer = { id: "sus-1", ok: true, data: { output: "Chennai" } };
    // an error before the first event is a real HTTP status with the error body (eventStreamResponse)
    const unknown = await post("/answer", { runId: "run-unknown", answer });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("run_not_found");
  });
});

describe("the npm entry (dist/index.js) under Bun", () => {
  it("halts into memoryStorage and a second client resumes the run, loading its chunks on first use", async () => {
    const tn = await import(`${root}dist/index.js`);
    const ask = tn.defineTool({
      name: "approve",
      description: "Needs a yes",
      execute: async (_args: unknown, ctx?: { answer?: { data?: { output?: unknown } } }) =>
        ctx?.answer ? `approved: ${ctx.answer.data?.output}` : tn.pending({ kind: "approval", prompt: "OK?" }),
    });
    const generate = ({ messages }: { messages: { role: string; content: string }[] }) =>
      messages.at(-1)?.role === "tool"
        ? { content: `done: ${messages.at(-1)?.content}` }
        : { toolCalls: [{ name: "approve", arguments: {} }] };
    const storage = tn.memoryStorage();
    const halted = await tn.createInProcessClient({ model: "m", generate, storage }).run("go", { toolkit: [ask] });
    expect(halted.status).toBe("pending");
    const second = tn.createInProcessClient({ model: "m", generate, storage });
    const done = await second.resume(halted.runId, tn.answerOutput(halted.pending.id, "yes"), { toolkit: [ask] });
    expect([done.status, done.text]).toEqual(["done", "done: approved: yes"]);
  });
});
