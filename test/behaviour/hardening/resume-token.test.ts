// Signed resume tokens (docs/guide/reliability.md, "Forged answers"): a token binds one run's open request until it expires;
// anything else — another run or request, a tampered, forged or expired token, a replay — is refused with
// ResumeTokenError and nothing changes.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  createResumeToken,
  isToolnexusError,
  ResumeTokenError,
  RunConflictError,
  type ResumeTokenProblem,
  ConfigError,
} from "toolnexus";
import { MODES, resumeIn } from "../../support/drive";
import { scripted } from "../../support/scripted";
import { base, halted, refused, SECRET } from "../../support/resume-tokens";
import { asPending } from "../../support/results";

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
