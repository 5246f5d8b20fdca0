// A resume token lives as long as its question can be answered: as long as the run stays resumable (the
// client's pendingTtlSeconds, 7 days by default), not one day. And a page whose token expired anyway (left open
// past it) fetches fresh tokens with its one-request restore and sends its answer once more, by itself.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createInProcessClient,
  createResumeToken,
  createRunSession,
  defineTool,
  memoryStorage,
  pending,
  ResumeTokenError,
  type PendingRequest,
} from "toolnexus";
import { edgeWorld, RESUME_SECRET } from "../../support/edge";

const DAY = 86_400_000;

/** Runs `fn` with the clock `ms` ahead (Date.now, which tokens are checked against), then puts it back. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const real = Date.now;
  Date.now = () => real() + ms;
  try {
    return await fn();
  } finally {
    Date.now = real;
  }
}

function asking(pendingTtlSeconds?: number, clock?: { now(): number }) {
  const ran: string[] = [];
  const city = defineTool({
    name: "ask_city",
    description: "asks which city",
    execute: (_args, ctx) => {
      if (!ctx.answer) return pending({ kind: "question", prompt: "Which city?" });
      ran.push(String(ctx.answer.data?.output));
      return "ok";
    },
  });
  const client = createInProcessClient({
    model: "m",
    storage: memoryStorage(),
    resumeSecret: RESUME_SECRET,
    ...(pendingTtlSeconds === undefined ? {} : { pendingTtlSeconds }),
    ...(clock === undefined ? {} : { clock }),
    generate: ({ messages }) =>
      (messages as { role: string }[]).at(-1)?.role === "tool"
        ? { content: "Done." }
        : { toolCalls: [{ id: "c1", name: "ask_city", arguments: {} }] },
  });
  return { ran, client, toolkit: [city] };
}

describe("resume tokens live as long as the question can be answered", () => {
  it("on the client's clock: issued at its time, refused once its time passes the lifetime", async () => {
    // a virtual clock ten days behind the system's: the system clock never moves in this test
    let now = Date.now() - 10 * DAY;
    const w = asking(3 * 86_400, { now: () => now });
    const halted = await w.client.run("city?", { toolkit: w.toolkit });
    if (halted.status !== "pending") throw new Error("expected a question");
    const answer = answerOutput(halted.pending.id, "Lima");
    // two days on the client's clock: still good (by the system's clock it expired a week ago)
    now += 2 * DAY;
    const peek = await w.client.inspect(halted.runId);
    expect(peek?.status).toBe("pending");
    now += 2 * DAY; // four days: past the three-day lifetime
    const refused = await w.client
      .resume(halted.runId, answer, { toolkit: w.toolkit, token: halted.token! })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "resume_token", problem: "expired" });
    expect(w.ran).toEqual([]);
    now -= 2 * DAY; // back to two days: the same token answers
    const done = await w.client.resume(halted.runId, answer, { toolkit: w.toolkit, token: halted.token! });
    expect(done.status).toBe("done");
    expect(w.ran).toEqual(["Lima"]);
  });

  it("a token answers two days later, while the run is kept (7 days by default)", async () => {
    const w = asking();
    const halted = await w.client.run("city?", { toolkit: w.toolkit });
    if (halted.status !== "pending") throw new Error("expected a question");
    const done = await later(2 * DAY, () =>
      w.client.resume(halted.runId, answerOutput(halted.pending.id, "Lima"), {
        toolkit: w.toolkit,
        token: halted.token!,
      }),
    );
    expect(done.status).toBe("done");
    expect(w.ran).toEqual(["Lima"]);
  });

  it("a token lives as long as pendingTtlSeconds, no longer", async () => {
    const w = asking(3 * 86_400);
    const halted = await w.client.run("city?", { toolkit: w.toolkit });
    if (halted.status !== "pending") throw new Error("expected a question");
    const answer = answerOutput(halted.pending.id, "Lima");
    const refused = await later(4 * DAY, () =>
      w.client.resume(halted.runId, answer, { toolkit: w.toolkit, token: halted.token! }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ResumeTokenError);
    expect(refused).toMatchObject({ code: "resume_token", problem: "expired" });
    expect(w.ran).toEqual([]);
  });
});

/** A token for `request` of `runId` that expired long ago, as a page left open for a month would hold. */
const stale = (runId: string, request: PendingRequest) =>
  createResumeToken({ runId, pending: request }, RESUME_SECRET, { now: Date.now() - 30 * DAY });

/** The page's fetch to `w`, noting what each POST asked for; while `stale` is set, tokens it gets are expired ones. */
function pageFetch(w: ReturnType<typeof edgeWorld>) {
  const page = { posts: [] as string[], stale: true, fetch: undefined as unknown as typeof globalThis.fetch };
  page.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown>;
    let kind = "answer";
    if (body.prompt) kind = "prompt";
    else if (body.restore) kind = "restore";
    page.posts.push(kind);
    const res = await w.fetch(input, init);
    if (!page.stale || !res.ok) return res;
    const out: string[] = [];
    for (const frame of (await res.text()).split("\n\n").filter(Boolean)) {
      const at = frame.indexOf("data: ");
      const event = JSON.parse(frame.slice(at + 6));
      if (event.type === "pending" && event.token) event.token = await stale(event.runId, event.request);
      const result = event.type === "done" ? event.result : undefined;
      if (result?.status === "pending") {
        result.tokens = await Promise.all(result.requests.map((r: PendingRequest) => stale(result.runId, r)));
        result.token = result.tokens[0];
      }
      out.push(`${frame.slice(0, at)}data: ${JSON.stringify(event)}`);
    }
    return new Response(`${out.join("\n\n")}\n\n`, { status: res.status, headers: res.headers });
  }) as typeof globalThis.fetch;
  return page;
}

describe("a page whose token expired", () => {
  it("fetches fresh tokens with one restore and answers once more, by itself", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const page = pageFetch(w);
    const session = createRunSession({ endpoint: "/api/run", fetch: page.fetch, storage: null });
    await session.send("which city?");
    expect(session.state.status).toBe("waiting");
    page.stale = false; // the page holds an expired token; the endpoint issues good ones
    page.posts.length = 0;
    const [request] = session.state.requests;
    await session.answer(answerOutput(request!.id, "Lima"), { text: "Lima" });
    expect(session.state).toMatchObject({ status: "done", error: undefined, requests: [] });
    expect(w.executions).toEqual(["ask_city:Lima"]);
    expect(page.posts).toEqual(["answer", "restore", "answer"]);
    expect(session.state.messages.map((m) => m.text)).toEqual(["which city?", "Lima", "Done: city Lima"]);
  });

  it("tries once: a second refusal is shown, and the question stays open", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const page = pageFetch(w); // every token the page gets is expired
    const session = createRunSession({ endpoint: "/api/run", fetch: page.fetch, storage: null });
    await session.send("which city?");
    page.posts.length = 0;
    const [request] = session.state.requests;
    await session.answer(answerOutput(request!.id, "Lima"));
    expect(page.posts).toEqual(["answer", "restore", "answer"]);
    expect(session.state).toMatchObject({ status: "error", error: { code: "resume_token" }, requests: [request] });
    expect(w.executions).toEqual([]);
  });
});
