// An edge world for resumable exchanges and stops: a real OpenAI-style client whose provider streams each
// turn token by token and can hold the stream at a gate (a model mid-answer), tools that suspend or run
// slowly until their signal aborts, and any number of handlers — "isolates" — over one shared storage.
import {
  createClient,
  createRunHandler,
  defineTool,
  memoryStorage,
  pending,
  type RunHandlerOptions,
  type RunStorage,
  type StreamEvent,
} from "toolnexus";

/** One model call: its text tokens (held at `gateAt` until `gate` resolves), then tool calls. */
export interface Turn {
  tokens: string[];
  gateAt?: number;
  gate?: Promise<void>;
  calls?: { id: string; name: string; args?: Record<string, unknown> }[];
}

const encoder = new TextEncoder();
const chunk = (value: unknown) => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);

function turnStream(turn: Turn, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (signal?.aborted) return c.error(signal.reason);
      if (at === turn.gateAt && turn.gate) {
        const aborted = new Promise<never>((_, reject) =>
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
        );
        await Promise.race([turn.gate, aborted]).catch((reason) => c.error(reason));
        if (signal?.aborted) return;
      }
      if (at < turn.tokens.length) {
        c.enqueue(chunk({ choices: [{ index: 0, delta: { content: turn.tokens[at++] } }] }));
        return;
      }
      const calls = turn.calls ?? [];
      calls.forEach((call, index) => {
        const fn = { name: call.name, arguments: JSON.stringify(call.args ?? {}) };
        const delta = { tool_calls: [{ index, id: call.id, type: "function", function: fn }] };
        c.enqueue(chunk({ choices: [{ index: 0, delta }] }));
      });
      const finish = calls.length ? "tool_calls" : "stop";
      c.enqueue(chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
      c.enqueue(encoder.encode("data: [DONE]\n\n"));
      c.close();
    },
  });
}

/** A provider playing `turns` in order, one per model call. */
export function provider(turns: Turn[]) {
  let calls = 0;
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const turn = turns[calls++];
    if (!turn) throw new Error(`the provider has no turn ${calls - 1}`);
    return new Response(turnStream(turn, init?.signal), { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

/** A gate a test opens when it wants the held model or tool to go on. */
export function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Tools: `slow` runs until its signal aborts (or `slowGate` opens), `ask_city` suspends. */
export function tools(slowGate?: Promise<void>) {
  const seen = { slowStarted: 0, slowAborted: 0, asked: [] as string[] };
  const list = [
    defineTool({
      name: "slow",
      description: "takes its time",
      execute: async (_args, ctx) => {
        seen.slowStarted++;
        await new Promise<void>((resolve, reject) => {
          ctx.signal.addEventListener("abort", () => (seen.slowAborted++, reject(ctx.signal.reason)), { once: true });
          slowGate?.then(resolve);
        });
        return "slow done";
      },
    }),
    defineTool({
      name: "ask_city",
      description: "asks which city",
      execute: async (_args, ctx) => {
        if (!ctx.answer) return pending({ kind: "question", prompt: "Which city?" });
        seen.asked.push(String(ctx.answer.data?.output));
        return `city ${String(ctx.answer.data?.output)}`;
      },
    }),
  ];
  return { list, seen };
}

/** A handler ("an isolate") over `storage` with its own client; the same storage makes them one deployment. */
export function isolate(
  storage: RunStorage,
  model: ReturnType<typeof provider>,
  toolkit: ReturnType<typeof tools>["list"],
  extra: Omit<RunHandlerOptions, "client" | "toolkit"> = {},
  secrets: { systemPrompt?: string; apiKey?: string } = {},
) {
  const client = createClient({
    ...(secrets.systemPrompt ? { systemPrompt: secrets.systemPrompt } : {}),
    baseUrl: "https://llm.test/v1",
    style: "openai",
    model: "edge-model",
    apiKey: secrets.apiKey ?? "sk-test",
    fetch: model.fetch,
    retries: 0,
    storage,
  });
  const handler = createRunHandler({ client, toolkit, ...extra });
  const origin = "http://edge.test";
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    handler(
      new Request(`${origin}/api/run`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
  const get = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    handler(new Request(`${origin}/api/run?${new URLSearchParams(query)}`, { headers }));
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), origin), init))) as typeof globalThis.fetch;
  return { client, handler, post, get, fetch };
}

export const sharedStorage = (): RunStorage => memoryStorage();

/** A stream's frames as `{ id, event }`, read one at a time; `cancel()` drops the reader. */
export function frames(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(): Promise<{ id?: string; event: StreamEvent } | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)![1]!;
          return { ...(id ? { id } : {}), event: JSON.parse(data) as StreamEvent };
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    async rest(): Promise<{ id?: string; event: StreamEvent }[]> {
      const all: { id?: string; event: StreamEvent }[] = [];
      for (let f = await this.next(); f; f = await this.next()) all.push(f);
      return all;
    },
    cancel: () => reader.cancel(),
  };
}

export const textOf = (list: { event: StreamEvent }[]) =>
  list.map(({ event }) => (event.type === "text" ? event.delta : "")).join("");
