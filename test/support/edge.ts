// A small edge world for the widget-protocol tests: an in-process client whose storage counts writes,
// tools that count their executions and suspend (one question, up to three approvals in one turn), the
// run handler in front of them, and a fetch that reaches that handler as a page's fetch would. Given a
// `model` (an injected fetch playing the provider), the client is a real one with a key and a header of its own.
import {
  createClient,
  createInProcessClient,
  createRunHandler,
  defineTool,
  memoryStorage,
  pending,
  type GenerateRequest,
  type RunHandlerOptions,
  type RunStorage,
  type SessionStorageLike,
  type StreamEvent,
  type Tool,
} from "toolnexus";

export const SYSTEM_PROMPT = "SYSTEM-PROMPT-never-to-the-page";
export const RESUME_SECRET = "resume-secret-for-edge-tests-0123456789";
/** What a `model` world's client sends the provider and a page must never see. */
export const API_KEY = "sk-edge-API-KEY-never-to-the-page";
export const HEADER_VALUE = "HEADER-VALUE-never-to-the-page";

/** Storage that counts every write, so a test can say "nothing was stored". */
/** A page's Web Storage (`sessionStorage`), in memory; `data` shows what the page kept. */
export function memoryWebStorage(): SessionStorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, String(v)),
    removeItem: (k) => void data.delete(k),
  };
}

export function countingStorage(
  inner: RunStorage = memoryStorage(),
): RunStorage & { writes: () => number; written: string[] } {
  let writes = 0;
  const written: string[] = []; // every value ever written, so a test can say what was kept at rest
  return {
    get: (key) => inner.get(key),
    set: (key, value, opts) => (writes++, written.push(value), inner.set(key, value, opts)),
    delete: (key) => (writes++, inner.delete(key)),
    compareAndSet: (key, expected, value, opts) => (
      writes++, written.push(value), inner.compareAndSet!(key, expected, value, opts)
    ),
    capabilities: inner.capabilities,
    writes: () => writes,
    written,
  };
}

type Message = { role: string; content?: unknown };

/** The stand-in model: calls the tools a prompt names, then reports every tool result it got. */
function generate({ messages }: GenerateRequest) {
  const list = messages as Message[];
  const last = list.at(-1)!;
  if (last.role === "tool") {
    const from = list.map((m) => m.role).lastIndexOf("assistant");
    const results = list.slice(from + 1).map((m) => String(m.content));
    return { content: `Done: ${results.join(" | ")}` };
  }
  const prompt = String(last.content);
  if (prompt.includes("three approvals"))
    return {
      toolCalls: ["a", "b", "c"].map((x) => ({ id: `call_${x}`, name: "approve", arguments: { what: x } })),
    };
  if (prompt.includes("two approvals"))
    return { toolCalls: ["a", "b"].map((x) => ({ id: `call_${x}`, name: "approve", arguments: { what: x } })) };
  if (prompt.includes("city")) return { toolCalls: [{ id: "call_city", name: "ask_city", arguments: {} }] };
  if (prompt.includes("what did I say")) {
    const said = list.filter((m) => m.role === "user").map((m) => String(m.content));
    return { content: `Earlier: ${said.slice(0, -1).join(" / ") || "nothing"}` };
  }
  return { content: `You said: ${prompt}` };
}

/** A real client's provider: its fetch, and the run limits to give the client. */
export interface EdgeModel {
  fetch: typeof globalThis.fetch;
  maxTurns?: number;
  timeoutMs?: number;
}

export function edgeWorld(
  opts: {
    resumeSecret?: string;
    requireResumeToken?: boolean;
    maxBodyBytes?: number;
    failsAfterTool?: number;
    answered?: Promise<void>;
    model?: EdgeModel;
    /** More tools, after the world's own (a test's tool that holds a run, say). */
    tools?: Tool[];
    /** The storage under the counting one (a test may watch what the handler reads). */
    storage?: RunStorage;
    /** More client options (a clock, a timeout on every request). */
    client?: { clock?: { now(): number }; answerTimeoutSeconds?: number };
  } = {},
) {
  let fails = opts.failsAfterTool ?? 0; // the model's turns after a tool result that fail first (a dropped upstream)
  const storage = countingStorage(opts.storage);
  const executions: string[] = [];
  const tools = [
    defineTool({
      name: "ask_city",
      description: "asks which city",
      execute: async (_args, ctx) => {
        if (!ctx?.answer) return pending({ kind: "question", prompt: "Which city?" });
        await opts.answered; // a test may hold the answered tool mid-run
        executions.push(`ask_city:${ctx.answer.data?.output ?? ctx.answer.reason}`);
        return `city ${ctx.answer.ok ? ctx.answer.data?.output : "none"}`;
      },
    }),
    defineTool({
      name: "approve",
      description: "asks for an approval",
      inputSchema: { type: "object", properties: { what: { type: "string" } }, required: ["what"] },
      execute: async (args, ctx) => {
        const what = String(args.what);
        if (!ctx?.answer) return pending({ kind: "approval", prompt: `Approve ${what}?`, data: { what } });
        executions.push(`approve:${what}:${ctx.answer.ok ? "yes" : "no"}`);
        return `${what} ${ctx.answer.ok ? "approved" : "declined"}`;
      },
    }),
    defineTool({
      name: "lookup",
      description: "looks something up (never suspends)",
      execute: async (args) => {
        executions.push(`lookup:${String(args.q)}`);
        return `found ${String(args.q)}`;
      },
    }),
    ...(opts.tools ?? []),
  ];
  const shared = {
    storage,
    systemPrompt: SYSTEM_PROMPT,
    ...(opts.resumeSecret ? { resumeSecret: opts.resumeSecret } : {}),
    ...(opts.requireResumeToken ? { requireResumeToken: true } : {}),
    ...opts.client,
  };
  const model = opts.model;
  const client = model
    ? createClient({
        ...shared,
        baseUrl: "https://llm.test/v1",
        style: "openai",
        model: "edge-model",
        apiKey: API_KEY,
        headers: { "x-tenant": HEADER_VALUE },
        fetch: model.fetch,
        retries: 0,
        ...(model.maxTurns === undefined ? {} : { maxTurns: model.maxTurns }),
        ...(model.timeoutMs === undefined ? {} : { timeoutMs: model.timeoutMs }),
      })
    : createInProcessClient({
        ...shared,
        model: "edge-model",
        generate: (req: GenerateRequest) => {
          if (fails > 0 && (req.messages as Message[]).at(-1)?.role === "tool") {
            fails--;
            throw new Error("upstream dropped");
          }
          return generate(req);
        },
      });
  const handler = createRunHandler({
    client,
    toolkit: tools,
    ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}),
  });
  const origin = "http://edge.test";
  const answering = new Set<Promise<Response>>();
  /** Resolves once the handler has answered (or failed) every request the world's fetch gave it so far. */
  const served = async (): Promise<void> => void (await Promise.allSettled([...answering]));
  /**
   * A page's fetch, answered by the handler; relative URLs resolve against the edge's origin. As a real
   * fetch does, aborting its signal fails the body being read (and the handler sees the request's signal).
   */
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const signal = init?.signal;
    const answered = handler(new Request(new URL(String(input), origin), init));
    answering.add(answered);
    answered.then(
      () => answering.delete(answered),
      () => answering.delete(answered),
    );
    if (!signal) return answered;
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(signal.reason);
      if (signal.aborted) fail();
      else signal.addEventListener("abort", fail, { once: true });
    });
    // a page gone before the response came: the server's runtime cancels the response it then makes
    aborted.catch(() => answered.then((late) => late.body?.cancel(signal.reason)).catch(() => {}));
    const res = await Promise.race([answered, aborted]);
    if (!res.body) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const fail = () => {
          controller.error(signal.reason);
          reader.cancel(signal.reason).catch(() => {});
        };
        if (signal.aborted) fail();
        else signal.addEventListener("abort", fail, { once: true });
      },
      async pull(controller) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (signal.aborted) return;
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, headers: res.headers });
  }) as typeof globalThis.fetch;
  const post = (body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
    handler(
      new Request(`${origin}/api/run`, {
        method: "POST",
        headers,
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
  const get = (runId: string) => handler(new Request(`${origin}/api/run?runId=${encodeURIComponent(runId)}`));
  return { client, tools, storage, executions, handler, fetch, post, get, served };
}

/**
 * An endpoint whose model calls `deploy` (needsApproval) for every prompt, then says "Deployed."; `ran`
 * lists the deploys that ran. With `owner`, the run handler stamps each run with its caller's owner.
 */
export function deployWorld(opts: Pick<RunHandlerOptions, "owner"> = {}) {
  const ran: string[] = [];
  const deploy = defineTool({
    name: "deploy",
    description: "Deploys",
    needsApproval: true,
    execute: () => {
      ran.push("deploy");
      return "deployed";
    },
  });
  const generate = ({ messages }: GenerateRequest) =>
    (messages as { role: string }[]).at(-1)?.role === "tool"
      ? { content: "Deployed." }
      : { toolCalls: [{ id: "call_1", name: "deploy", arguments: {} }] };
  const client = createInProcessClient({ model: "m", generate, storage: memoryStorage() });
  const handler = createRunHandler({ client, toolkit: [deploy], ...opts });
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(new URL(String(input), "http://edge.test"), init))) as typeof globalThis.fetch;
  return { ran, handler, fetch };
}

/** Every SSE frame of a response, as the JSON it carried. */
export async function framesOf(res: Response): Promise<StreamEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => JSON.parse(frame.slice(frame.indexOf("data: ") + 6)) as StreamEvent);
}

export function doneOf(events: StreamEvent[]) {
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error(`the stream did not end with done: ${JSON.stringify(events.at(-1))}`);
  return done.result as Record<string, any>;
}
