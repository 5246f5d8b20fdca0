// A resume token is bound to one request (docs/guide/reliability.md, "Tokens"): a halted run's result hands
// one per open request (`tokens`), a resume answering several requests carries one token per answer, in the
// answers' order, in-process and over HTTP, and the page session sends each answer's own. Any other
// combination is a ResumeTokenError and nothing changes.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  createResumeToken,
  createRunSession,
  defineTool,
  isToolnexusError,
  memoryStorage,
  pending,
  type PendingRequest,
  type PendingResult,
  type ResumeTokenProblem,
} from "toolnexus";
import { doneOf, edgeWorld, framesOf, memoryWebStorage, RESUME_SECRET } from "../../support/edge";
import { asPending } from "../../support/results";
import { scripted, toolResultsIn } from "../../support/scripted";
import { base, halted, refused, SECRET } from "../../support/resume-tokens";

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

describe("result.tokens: a token for every open request", () => {
  const IDS = ["q1", "q2", "q3"];

  /** `n` tools that each suspend once (q1, q2, q3) and count their runs; the model then reports their results. */
  function askers(n: number) {
    const runs: Record<string, number> = {};
    const tools = IDS.slice(0, n).map((id) =>
      defineTool({
        name: `ask_${id}`,
        description: `asks ${id}`,
        execute: (_a, ctx) => {
          runs[id] = (runs[id] ?? 0) + 1;
          return ctx.answer ? `${id}=${ctx.answer.data?.output}` : pending({ kind: "input", prompt: `${id}?`, id });
        },
      }),
    );
    const s = scripted("openai", [
      { calls: tools.map((t) => ({ name: t.name })) },
      (b) => ({ text: toolResultsIn(b).join("|") }),
    ]);
    return { tools, runs, s, storage: memoryStorage() };
  }

  /** A run halted on `n` requests of a client that signs and requires tokens. */
  async function haltedOn(n: number) {
    const k = askers(n);
    const client = createClient({
      ...base,
      fetch: k.s.fetch,
      storage: k.storage,
      resumeSecret: SECRET,
      requireResumeToken: true,
    });
    const result = asPending(await client.run("go", { toolkit: k.tools }));
    return { ...k, client, result, key: `run:${result.runId}` };
  }

  it("one per entry of requests, in their order, the first being token; none without a resumeSecret", async () => {
    for (const n of [1, 2, 3]) {
      const { result } = await haltedOn(n);
      expect(result.requests.map((r) => r.id)).toEqual(IDS.slice(0, n));
      expect(result.tokens).toHaveLength(n);
      expect(result.tokens![0]).toBe(result.token);
      // each is bound to its own request: its claims name the run and that request
      result.tokens!.forEach((t, i) => {
        const claims = JSON.parse(atob(t.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
        expect(claims).toMatchObject({ r: result.runId, q: IDS[i] });
      });
    }
    const k = askers(1);
    const plain = asPending(await createClient({ ...base, fetch: k.s.fetch }).run("go", { toolkit: k.tools }));
    expect("token" in plain || "tokens" in plain).toBe(false);
  });

  const orders: Record<number, number[][]> = {
    2: [
      [0, 1],
      [1, 0],
    ],
    3: [
      [0, 1, 2],
      [2, 0, 1],
      [1, 2, 0],
    ],
  };
  for (const n of [2, 3])
    for (const order of orders[n]!)
      it(`${n} open requests answered at once in the order ${order.map((i) => IDS[i]).join(", ")}, with result.tokens reordered alike`, async () => {
        const h = await haltedOn(n);
        const answers = order.map((i) => answerOutput(IDS[i]!, `a${i}`));
        const tokens = order.map((i) => h.result.tokens![i]!);
        const done = await h.client.resume(h.result.runId, answers, { toolkit: h.tools, tokens });
        expect(done.status).toBe("done");
        expect(done.text).toBe(
          IDS.slice(0, n)
            .map((id, i) => `${id}=a${i}`)
            .join("|"),
        );
        expect(Object.values(h.runs)).toEqual(Array(n).fill(2)); // each suspended once, then ran once on its answer
      });

  it("one at a time: each answer with its own token of result.tokens; the pending result again has tokens for the rest", async () => {
    const h = await haltedOn(3);
    const toolkit = h.tools;
    const second = asPending(
      await h.client.resume(h.result.runId, answerOutput("q2", "two"), { toolkit, token: h.result.tokens![1]! }),
    );
    expect(second.requests.map((r) => r.id)).toEqual(["q1", "q3"]);
    expect(second.tokens).toHaveLength(2);
    expect(second.tokens![0]).toBe(second.token);
    const done = await h.client.resume(h.result.runId, [answerOutput("q3", "three"), answerOutput("q1", "one")], {
      toolkit,
      tokens: [second.tokens![1]!, second.tokens![0]!],
    });
    expect(done.text).toBe("q1=one|q2=two|q3=three");
    expect(h.runs).toEqual({ q1: 2, q2: 2, q3: 2 });
  });

  it("q1's token used for q2 is refused with ResumeTokenError and consumes nothing", async () => {
    const h = await haltedOn(3);
    const stored = await h.storage.get(h.key);
    const [t1, t2, t3] = h.result.tokens!;
    const { runId } = h.result;
    const toolkit = h.tools;
    expect(await refused(h.client.resume(runId, answerOutput("q2", "x"), { toolkit, token: t1! }))).toBe("request");
    const three = IDS.map((id) => answerOutput(id, "x"));
    expect(await refused(h.client.resume(runId, three, { toolkit, tokens: [t2!, t1!, t3!] }))).toBe("request");
    expect(await refused(h.client.resume(runId, three, { toolkit, tokens: [t1!, t1!, t3!] }))).toBe("request");
    expect(await refused(h.client.resume(runId, three, { toolkit, tokens: [t1!, t2!] }))).toBe("missing");
    expect(await h.storage.get(h.key)).toBe(stored);
    expect(h.runs).toEqual({ q1: 1, q2: 1, q3: 1 });
    expect(h.s.bodies).toHaveLength(1);
    const done = await h.client.resume(runId, three, { toolkit, tokens: [t1!, t2!, t3!] });
    expect(done.text).toBe("q1=x|q2=x|q3=x");
  });

  it("a stream's pending events each carry their own token, and its done result carries tokens for all", async () => {
    const k = askers(3);
    const client = createClient({ ...base, fetch: k.s.fetch, storage: k.storage, resumeSecret: SECRET });
    const own: Record<string, string> = {};
    let result: PendingResult | undefined;
    for await (const e of client.stream("go", { toolkit: k.tools })) {
      if (e.type === "pending") own[e.request.id] = e.token!;
      if (e.type === "done") result = asPending(e.result);
    }
    expect(Object.keys(own)).toEqual(IDS);
    expect(result!.tokens).toHaveLength(3);
    expect(result!.tokens![0]).toBe(result!.token);
    // the events' tokens open the answers; the result's, given with the same answers again, get the kept outcome
    const answers = IDS.map((id) => answerOutput(id, "y"));
    const strict = createClient({
      ...base,
      fetch: k.s.fetch,
      storage: k.storage,
      resumeSecret: SECRET,
      requireResumeToken: true,
    });
    const tokens = IDS.map((id) => own[id]!);
    const done = await strict.resume(result!.runId, answers, { toolkit: k.tools, tokens });
    expect(done.text).toBe("q1=y|q2=y|q3=y");
    expect(await strict.resume(result!.runId, answers, { toolkit: k.tools, tokens: result!.tokens! })).toEqual(done);
    expect(k.runs).toEqual({ q1: 2, q2: 2, q3: 2 });
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

  it("the done result of a halt on three requests carries tokens, one per request; POSTed reordered with the answers, they run each once", async () => {
    const w = edgeWorld({ resumeSecret: RESUME_SECRET, requireResumeToken: true });
    const halted = doneOf(await framesOf(await w.post({ prompt: "three approvals please" })));
    const { runId } = halted;
    const requests = halted.requests as PendingRequest[];
    const tokens = halted.tokens as string[];
    expect(requests).toHaveLength(3);
    expect(tokens).toHaveLength(3);
    expect(tokens[0]).toBe(halted.token);
    const stored = await w.storage.get(`run:${runId}`);
    const [a, b, c] = requests.map((q) => answerOutput(q.id, "yes"));
    // the first request's token for the second's answer: refused, nothing changed
    expect(await codeOf(await w.post({ runId, answer: b, token: tokens[0] }))).toEqual([403, "resume_token"]);
    expect(await w.storage.get(`run:${runId}`)).toBe(stored);
    expect(w.executions).toEqual([]);
    const answers = [c, a, b];
    const done = doneOf(await framesOf(await w.post({ runId, answers, tokens: [tokens[2], tokens[0], tokens[1]] })));
    expect(done.text).toBe("Done: a approved | b approved | c approved");
    expect([...w.executions].sort()).toEqual(["approve:a:yes", "approve:b:yes", "approve:c:yes"]);
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
