// A resume token is bound to one request (docs/guide/reliability.md, "Tokens"): a resume answering several
// requests carries one token per answer, in the answers' order, in-process and over HTTP, and the page
// session sends each answer's own. Any other combination is a ResumeTokenError and nothing changes.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  createResumeToken,
  createRunSession,
  isToolnexusError,
  type PendingRequest,
  type ResumeTokenProblem,
} from "toolnexus";
import { doneOf, edgeWorld, framesOf, memoryWebStorage, RESUME_SECRET } from "../support/edge";
import { scripted, toolResultsIn } from "../support/scripted";
import { base, halted, refused, SECRET } from "../support/resume-tokens";

describe("a token per answer", () => {
  async function twoTokens(h: Awaited<ReturnType<typeof halted>>) {
    const book = h.result.requests.find((r) => r.id === "q-book")!;
    return {
      city: await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET),
      book: await createResumeToken({ runId: h.runId, pending: book }, SECRET),
    };
  }
  const both = [answerOutput("q-city", "Pune"), { id: "q-book", ok: true }];

  for (const required of [false, true]) {
    it(`one request's token opens no other request's answer; nothing changes (requireResumeToken: ${required})`, async () => {
      const h = await halted({ two: true });
      const client = createClient({
        ...base,
        fetch: h.s.fetch,
        storage: h.storage,
        resumeSecret: SECRET,
        requireResumeToken: required,
      });
      const t = await twoTokens(h);
      const tries: [object, ResumeTokenProblem][] = [
        [{ token: t.city }, "missing"],
        [{ tokens: [t.city] }, "missing"],
        [{ tokens: [t.book, t.city] }, "request"],
        [{ tokens: [t.city, t.city] }, "request"],
        [{ tokens: [t.city, t.book, t.book] }, "malformed"],
        [{ token: t.city, tokens: [t.city, t.book] }, "malformed"],
        [{ tokens: t.city }, "malformed"],
      ];
      for (const [given, problem] of tries) {
        const got = await refused(client.resume(h.runId, both, { toolkit: h.k.tools, ...given }));
        expect({ given, got }).toEqual({ given, got: problem });
      }
      expect(
        await refused(client.resume(h.runId, { id: "q-book", ok: true }, { toolkit: h.k.tools, token: t.city })),
      ).toBe("request");
      expect(await h.storage.get(h.key)).toBe(h.stored);
      expect(h.k.runs).toEqual({ city: 1, book: 1 });
      expect(h.s.bodies).toHaveLength(1);
      const done = await client.resume(h.runId, both, { toolkit: h.k.tools, tokens: [t.city, t.book] });
      expect(done.text).toBe("city=Pune|booked");
      expect(h.k.runs).toEqual({ city: 2, book: 2 });
      // the same answers with their tokens again: the kept outcome, nothing runs
      expect(await client.resume(h.runId, both, { toolkit: h.k.tools, tokens: [t.city, t.book] })).toEqual(done);
      expect(h.k.runs).toEqual({ city: 2, book: 2 });
    });
  }

  it("after a failed model call the same two answers retry with their two tokens; no tool runs twice", async () => {
    let calls = 0;
    const h = await halted({ two: true });
    const s = scripted("openai", [(b) => ({ text: toolResultsIn(b).join("|") })]);
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) =>
      calls++ === 0
        ? new Response('{"error":{"message":"bad"}}', { status: 400 })
        : s.fetch(input, init)) as typeof fetch;
    const client = createClient({
      ...base,
      fetch: flaky,
      storage: h.storage,
      resumeSecret: SECRET,
      requireResumeToken: true,
      retries: 0,
    });
    const t = await twoTokens(h);
    const first = await client.resume(h.runId, both, { toolkit: h.k.tools, tokens: [t.city, t.book] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isToolnexusError(first) && first.code).toBe("llm_http");
    expect(h.k.runs).toEqual({ city: 2, book: 2 });
    // the retry needs both tokens still: one of them alone is refused, and nothing runs
    expect(await refused(client.resume(h.runId, both, { toolkit: h.k.tools, token: t.city }))).toBe("missing");
    const done = await client.resume(h.runId, both, { toolkit: h.k.tools, tokens: [t.city, t.book] });
    expect(done.text).toBe("city=Pune|booked");
    expect(h.k.runs).toEqual({ city: 2, book: 2 });
  });

  it("inspect hands a token for each open request; each opens only its own answer", async () => {
    const h = await halted({ two: true });
    const found = await h.client.inspect(h.runId);
    const tokens = (found as { tokens?: Record<string, string> }).tokens!;
    expect(Object.keys(tokens).sort()).toEqual(["q-book", "q-city"]);
    const reversed = [both[1]!, both[0]!];
    expect(
      await refused(
        h.client.resume(h.runId, reversed, { toolkit: h.k.tools, tokens: [tokens["q-city"]!, tokens["q-book"]!] }),
      ),
    ).toBe("request");
    const done = await h.client.resume(h.runId, reversed, {
      toolkit: h.k.tools,
      tokens: [tokens["q-book"]!, tokens["q-city"]!],
    });
    expect(done.text).toBe("city=Pune|booked");
  });
});

describe("a token per answer over HTTP", () => {
  async function halt(w: ReturnType<typeof edgeWorld>) {
    const events = await framesOf(await w.post({ prompt: "two approvals please" }));
    const tokens: Record<string, string> = {};
    for (const e of events) if (e.type === "pending" && e.token) tokens[e.request.id] = e.token;
    const halted = doneOf(events);
    const [a, b] = halted.requests as PendingRequest[];
    return { runId: halted.runId as string, a: a!, b: b!, tokens };
  }
  const codeOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

  it("POST with the first request's token and answers to both is 403; { tokens } with both runs each once", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const { runId, a, b, tokens } = await halt(w);
    const stored = await w.storage.get(`run:${runId}`);
    const answers = [answerOutput(a.id, "yes"), answerOutput(b.id, "yes")];
    expect(await codeOf(await w.post({ runId, answers, token: tokens[a.id] }))).toEqual([403, "resume_token"]);
    const swapped = [tokens[b.id], tokens[a.id]];
    expect(await codeOf(await w.post({ runId, answers, tokens: swapped }))).toEqual([403, "resume_token"]);
    expect(await codeOf(await w.post({ runId, answers, tokens: "x" }))).toEqual([400, "bad_request"]);
    expect(await codeOf(await w.post({ runId, answers, token: tokens[a.id], tokens: [] }))).toEqual([
      400,
      "bad_request",
    ]);
    expect(await w.storage.get(`run:${runId}`)).toBe(stored);
    expect(w.executions).toEqual([]);
    const done = doneOf(await framesOf(await w.post({ runId, answers, tokens: [tokens[a.id], tokens[b.id]] })));
    expect(done.text).toBe("Done: a approved | b approved");
    expect(w.executions).toEqual(["approve:a:yes", "approve:b:yes"]);
  });

  for (const reload of [false, true]) {
    it(`the page session sends each answer's own token when it answers both at once (${reload ? "after a reload" : "as streamed"})`, async () => {
      const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
      const sent: Record<string, unknown>[] = [];
      const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === "POST") sent.push(JSON.parse(String(init.body)));
        return w.fetch(input, init);
      }) as typeof globalThis.fetch;
      const storage = memoryWebStorage();
      const first = createRunSession({ endpoint: "/api/run", fetch, storage });
      await first.send("two approvals please");
      const page = reload ? createRunSession({ endpoint: "/api/run", fetch, storage }) : first;
      if (reload) await page.restore();
      expect(page.state.status).toBe("waiting");
      const [a, b] = page.state.requests;
      const { tokens } = await halt(w); // another run's tokens: the page must not send these
      expect(Object.values(tokens)).toHaveLength(2);
      await page.answer([answerOutput(b!.id, "yes"), answerOutput(a!.id, "yes")]);
      expect(page.state.status).toBe("done");
      expect(page.state.messages.at(-1)?.text).toBe("Done: a approved | b approved");
      const body = sent.at(-1)!;
      expect(body.token).toBeUndefined();
      expect(body.tokens).toHaveLength(2);
      expect(w.executions).toEqual(["approve:b:yes", "approve:a:yes"]);
    });
  }
});
