// Signed resume tokens (docs/RELIABILITY.md, "Forged answers"): a token binds one run's open request until it expires;
// anything else — another run or request, a tampered, forged or expired token, a replay — is refused with
// ResumeTokenError and nothing changes.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  createResumeToken,
  defineTool,
  isToolnexusError,
  memoryStorage,
  pending,
  ResumeTokenError,
  RunConflictError,
  type ResumeTokenProblem,
  ConfigError,
  createRunSession,
  type PendingRequest,
} from "toolnexus";
import { MODES, resumeIn } from "../support/drive";
import { scripted, toolResultsIn } from "../support/scripted";
import { asPending } from "../support/results";
import { doneOf, edgeWorld, framesOf, memoryWebStorage, RESUME_SECRET } from "../support/edge";

const SECRET = "resume-secret-0123456789abcdef";
const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;

function kit() {
  const runs = { city: 0, book: 0 };
  const tools = [
    defineTool({
      name: "ask_city",
      description: "asks for a city",
      execute: (_a, ctx) => (
        runs.city++,
        ctx?.answer
          ? `city=${ctx.answer.data?.output}`
          : pending({ kind: "input", prompt: "Which city?", id: "q-city" })
      ),
    }),
    defineTool({
      name: "approve",
      description: "asks for approval",
      execute: (_a, ctx) => (
        runs.book++, ctx?.answer ? "booked" : pending({ kind: "approval", prompt: "Book it?", id: "q-book" })
      ),
    }),
  ];
  return { tools, runs };
}

async function halted(opts: { two?: boolean; fetch?: typeof fetch } = {}) {
  const storage = memoryStorage();
  const k = kit();
  const s = scripted("openai", [
    { calls: opts.two ? [{ name: "ask_city" }, { name: "approve" }] : [{ name: "ask_city" }] },
    (b) => ({ text: toolResultsIn(b).join("|") }),
  ]);
  const client = createClient({ ...base, fetch: opts.fetch ?? s.fetch, storage, resumeSecret: SECRET });
  const result = asPending(await createClient({ ...base, fetch: s.fetch, storage }).run("trip", { toolkit: k.tools }));
  const key = `run:${result.runId}`;
  return { storage, k, s, client, result, runId: result.runId, key, stored: await storage.get(key) };
}

async function refused(promise: Promise<unknown>): Promise<ResumeTokenProblem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResumeTokenError);
  expect((error as ResumeTokenError).code).toBe("resume_token");
  return (error as ResumeTokenError).problem;
}

describe("resume tokens", () => {
  for (const mode of MODES) {
    it(`a token for the open request lets its answer through (${mode})`, async () => {
      const h = await halted();
      const token = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET);
      const { result } = await resumeIn(h.client, mode, h.runId, answerOutput("q-city", "Chennai"), {
        toolkit: h.k.tools,
        token,
      } as never);
      expect(result.text).toBe("city=Chennai");
      expect(h.k.runs.city).toBe(2);
    });

    it(`a token for another run, another request, another secret, or a tampered one is refused; nothing changes (${mode})`, async () => {
      const h = await halted({ two: true });
      const other = await halted();
      const a = answerOutput("q-city", "Pune");
      const tries: [string, ResumeTokenProblem][] = [
        [await createResumeToken({ runId: other.runId, pending: other.result.pending }, SECRET), "run"],
        [
          await createResumeToken(
            { runId: h.runId, pending: { id: "q-book", kind: "approval", prompt: "Book it?" } },
            SECRET,
          ),
          "request",
        ],
        [
          await createResumeToken({ runId: h.runId, pending: h.result.pending }, "another-secret-0123456789"),
          "signature",
        ],
      ];
      const good = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET);
      const [v, payload, sig] = good.split(".") as [string, string, string];
      const forged = btoa(JSON.stringify({ r: h.runId, q: "q-city", e: Date.now() + 1e12 }))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
      tries.push([`${v}.${forged}.${sig}`, "signature"]); // a longer expiry under the old signature
      tries.push([`${v}.${payload}.${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`, "signature"]);
      tries.push(
        [`${v}.${payload}`, "malformed"],
        ["not a token", "malformed"],
        ["tn1.%%%.%%%", "malformed"],
        ["", "malformed"],
      );
      for (const [token, problem] of tries) {
        expect({
          token,
          problem: await refused(resumeIn(h.client, mode, h.runId, a, { toolkit: h.k.tools, token } as never)),
        }).toEqual({ token, problem });
      }
      expect(await refused(h.client.resume(h.runId, a, { toolkit: h.k.tools, token: 42 as never }))).toBe("malformed");
      expect(await h.storage.get(h.key)).toBe(h.stored);
      expect(h.k.runs).toEqual({ city: 1, book: 1 });
      expect(h.s.bodies).toHaveLength(1);
    });
  }

  it("an expired token is refused; a fresh one works", async () => {
    const h = await halted();
    const old = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET, {
      ttlSeconds: 60,
      now: Date.now() - 61_000,
    });
    const a = answerOutput("q-city", "Agra");
    expect(await refused(h.client.resume(h.runId, a, { toolkit: h.k.tools, token: old }))).toBe("expired");
    expect(await h.storage.get(h.key)).toBe(h.stored);
    const fresh = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET, { ttlSeconds: 60 });
    expect((await h.client.resume(h.runId, a, { toolkit: h.k.tools, token: fresh })).text).toBe("city=Agra");
  });

  it("an identical answer replayed with its used token gets the kept outcome (a safe retry); a different answer is refused", async () => {
    const h = await halted({ two: true });
    const cityToken = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET);
    const a = answerOutput("q-city", "Goa");
    const mid = asPending(await h.client.resume(h.runId, a, { toolkit: h.k.tools, token: cityToken }));
    expect(mid.pending.id).toBe("q-book");
    const midStored = await h.storage.get(h.key);
    // a double submit of the first card: the run as that answer left it, nothing runs, nothing is written
    const again = await h.client.resume(h.runId, a, { toolkit: h.k.tools, token: cityToken });
    expect(again.status).toBe("pending");
    expect(asPending(again).pending.id).toBe("q-book");
    expect(
      await refused(h.client.resume(h.runId, answerOutput("q-city", "Rome"), { toolkit: h.k.tools, token: cityToken })),
    ).toBe("replayed");
    expect(await h.storage.get(h.key)).toBe(midStored);
    const bookToken = await createResumeToken({ runId: h.runId, pending: mid.pending }, SECRET);
    const done = await h.client.resume(h.runId, { id: "q-book", ok: true }, { toolkit: h.k.tools, token: bookToken });
    expect(done.text).toBe("city=Goa|booked");
    const replayed = await h.client.resume(
      h.runId,
      { id: "q-book", ok: true },
      { toolkit: h.k.tools, token: bookToken },
    );
    expect(replayed).toEqual(done);
    expect(
      await refused(h.client.resume(h.runId, { id: "q-book", ok: false }, { toolkit: h.k.tools, token: bookToken })),
    ).toBe("replayed");
    expect(h.k.runs).toEqual({ city: 2, book: 2 });
  });

  it("20 racing resumes with one valid token: one answer gets through, the rest are typed errors", async () => {
    const h = await halted();
    const token = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET);
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        h.client.resume(h.runId, answerOutput("q-city", `C${i}`), { toolkit: h.k.tools, token }),
      ),
    );
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of settled)
      if (r.status === "rejected")
        expect(r.reason instanceof RunConflictError || r.reason instanceof ResumeTokenError).toBe(true);
    expect(h.k.runs.city).toBe(2);
  });

  it("after a failed model call the same answer may retry with the same token; no tool runs twice", async () => {
    let calls = 0;
    const h0 = await halted();
    const s = scripted("openai", [{ text: "after retry" }]);
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) =>
      calls++ === 0
        ? new Response('{"error":{"message":"bad"}}', { status: 400 })
        : s.fetch(input, init)) as typeof fetch;
    const client = createClient({ ...base, fetch: flaky, storage: h0.storage, resumeSecret: SECRET, retries: 0 });
    const token = await createResumeToken({ runId: h0.runId, pending: h0.result.pending }, SECRET);
    const a = answerOutput("q-city", "Kochi");
    const first = await client.resume(h0.runId, a, { toolkit: h0.k.tools, token }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isToolnexusError(first) && first.code).toBe("llm_http");
    expect(
      await refused(
        client.resume(h0.runId, answerOutput("q-city", "Other"), {
          toolkit: h0.k.tools,
          token: await createResumeToken(
            { runId: h0.runId, pending: { id: "q-x", kind: "input", prompt: "?" } },
            SECRET,
          ),
        }),
      ),
    ).toBe("request");
    expect((await client.resume(h0.runId, a, { toolkit: h0.k.tools, token })).text).toBe("after retry");
    expect(h0.k.runs.city).toBe(2);
  });

  it("requireResumeToken refuses a resume without one; a token without resumeSecret is a config error", async () => {
    const h = await halted();
    const strict = createClient({
      ...base,
      fetch: h.s.fetch,
      storage: h.storage,
      resumeSecret: SECRET,
      requireResumeToken: true,
    });
    const a = answerOutput("q-city", "Delhi");
    expect(await refused(strict.resume(h.runId, a, { toolkit: h.k.tools }))).toBe("missing");
    const token = await createResumeToken({ runId: h.runId, pending: h.result.pending }, SECRET);
    const plain = createClient({ ...base, fetch: h.s.fetch, storage: h.storage });
    await expect(plain.resume(h.runId, a, { toolkit: h.k.tools, token })).rejects.toMatchObject({ code: "config" });
    expect(await h.storage.get(h.key)).toBe(h.stored);
    expect(h.k.runs.city).toBe(1);
    expect((await strict.resume(h.runId, a, { toolkit: h.k.tools, token })).text).toBe("city=Delhi");
  });

  it("tokens carry the run, the request and the expiry — never the secret; bad inputs are ConfigErrors", async () => {
    const token = await createResumeToken(
      { runId: "run-1", pending: { id: "q-1", kind: "input", prompt: "?" } },
      SECRET,
      { ttlSeconds: 10, now: 1_000 },
    );
    expect(token).toMatch(/^tn1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(SECRET);
    const payload = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    expect(JSON.parse(atob(payload + "=".repeat((4 - (payload.length % 4)) % 4)))).toEqual({
      r: "run-1",
      q: "q-1",
      e: 11_000,
    });
    const run = { runId: "run-1", pending: { id: "q-1", kind: "input", prompt: "?" } };
    await expect(createResumeToken(run, "short")).rejects.toThrow(ConfigError);
    await expect(createResumeToken({ runId: "", pending: run.pending }, SECRET)).rejects.toThrow("runId");
    await expect(createResumeToken({ runId: "r", pending: undefined as never }, SECRET)).rejects.toThrow("pending");
    await expect(createResumeToken(run, SECRET, { ttlSeconds: -1 })).rejects.toThrow("ttlSeconds");
    expect(() => createClient({ ...base, requireResumeToken: true })).toThrow("resumeSecret");
    expect(() => createClient({ ...base, resumeSecret: "short" })).toThrow(ConfigError);
  });
});

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
