// Retries, Retry-After, backoff, aborts, network failures and credentials kept out of errors, with a scripted
// fetch (what a failed reply becomes is in http-error.test.ts).
import { describe, expect, it } from "vitest";
import { createClient } from "toolnexus";
import {
  isToolnexusError,
  LlmHttpError,
  NetworkError,
  postWithRetry,
  type ErrorInfo,
  type RetryOptions,
} from "../../support/internals";
import * as geminiQuota from "../../fixtures/wire/gemini/quota-429";

type Step = () => Response;
const reply =
  (status: number, body = "", headers: Record<string, string> = {}): Step =>
  () =>
    new Response(status === 204 ? null : body, { status, headers });
const fail =
  (error: unknown): Step =>
  () => {
    throw error;
  };

/** A fetch that plays `steps` in order (the last one repeats) and counts hits. */
function scripted(steps: Step[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    seen.push({ url: String(url), init: init ?? {} });
    return steps[Math.min(seen.length, steps.length) - 1]!();
  }) as typeof globalThis.fetch;
  return { fetch, seen, hits: () => seen.length };
}

/** A sleep that records the requested delay and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    delays.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
  return { sleep, delays };
}

const URL_ = "https://llm.test/v1/chat/completions";
const init = { headers: { "Content-Type": "application/json" }, body: '{"model":"m"}' };
const post = (steps: Step[], opts: Partial<RetryOptions> = {}) => {
  const f = scripted(steps);
  const s = recordingSleep();
  const promise = postWithRetry(URL_, init, { fetch: f.fetch, retries: 2, retryBaseMs: 1, sleep: s.sleep, ...opts });
  return { promise, ...f, delays: s.delays };
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("postWithRetry: attempts", () => {
  it("returns the first ok response with its body unread, after one POST with the given headers and body", async () => {
    const ctl = new AbortController();
    const r = post([reply(200, '{"ok":true}')], { signal: ctl.signal });
    const res = await r.promise;
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ ok: true });
    expect(r.hits()).toBe(1);
    expect(r.seen[0]!.url).toBe(URL_);
    expect(r.seen[0]!.init).toMatchObject({ method: "POST", headers: init.headers, body: init.body });
    expect(r.seen[0]!.init.signal).toBe(ctl.signal);
  });

  it("two 503s then success ⇒ 3 hits", async () => {
    const r = post([reply(503), reply(503), reply(200, "{}")]);
    expect((await r.promise).status).toBe(200);
    expect(r.hits()).toBe(3);
    expect(r.delays).toHaveLength(2);
  });

  it("503 under retries 2 ⇒ 3 hits, then LlmHttpError 503", async () => {
    const r = post([reply(503, "overloaded")]);
    const error = await rejection(r.promise);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 503, body: "overloaded", message: "LLM 503: overloaded" });
    expect(r.hits()).toBe(3);
  });

  for (const status of [429, 500, 502, 503, 504, 529]) {
    it(`retries ${status} by default`, async () => {
      const r = post([reply(status), reply(200)]);
      expect((await r.promise).status).toBe(200);
      expect(r.hits()).toBe(2);
    });
  }

  it("default: 400 fails after 1 hit", async () => {
    const r = post([reply(400, "bad request"), reply(200)]);
    await expect(r.promise).rejects.toThrow(/LLM 400/);
    expect(r.hits()).toBe(1);
  });

  it("a 4xx under retries 4 ⇒ exactly 1 hit", async () => {
    const r = post([reply(404), reply(200)], { retries: 4 });
    await expect(r.promise).rejects.toThrow(/LLM 404/);
    expect(r.hits()).toBe(1);
  });

  it("retries 0 ⇒ exactly one attempt, even for a retryable status", async () => {
    const r = post([reply(503), reply(200)], { retries: 0 });
    await expect(r.promise).rejects.toThrow(/LLM 503/);
    expect(r.hits()).toBe(1);
  });

  it("retryableStatuses adds to the set and cannot remove from it", async () => {
    const added = post([reply(418), reply(200)], { retryableStatuses: [418] });
    expect((await added.promise).status).toBe(200);
    expect(added.hits()).toBe(2);
    const kept = post([reply(429), reply(200)], { retryableStatuses: [] });
    expect((await kept.promise).status).toBe(200);
    expect(kept.hits()).toBe(2);
  });

  it("refuses a retries value that is not a whole number ≥ 0 (checked once, with the client's options)", () => {
    for (const retries of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        createClient({ style: "openai", model: "m", apiKey: "k", baseUrl: "https://llm.test/v1", retries });
      } catch (e) {
        error = e;
      }
      expect(isToolnexusError(error)).toBe(true);
      expect(error).toMatchObject({ code: "config" });
    }
  });
});

describe("postWithRetry: onError", () => {
  it('"fail" on 429 ⇒ 1 hit, rejects /LLM 429/', async () => {
    const r = post([reply(429), reply(200)], { onError: () => "fail" });
    await expect(r.promise).rejects.toThrow(/LLM 429/);
    expect(r.hits()).toBe(1);
  });

  it('"retry" on 400 with retries 2 ⇒ 3 hits', async () => {
    const r = post([reply(400)], { onError: () => "retry" });
    await expect(r.promise).rejects.toThrow(/LLM 400/);
    expect(r.hits()).toBe(3);
  });

  it("sees status, 0-based attempt and retryable for each failure", async () => {
    const infos: ErrorInfo[] = [];
    const r = post([reply(503), reply(418), reply(200)], { onError: (i) => (infos.push(i), "retry") });
    await r.promise;
    expect(infos).toEqual([
      { status: 503, attempt: 0, retryable: true },
      { status: 418, attempt: 1, retryable: false },
    ]);
  });

  it("an onError that returns nothing keeps the default decision", async () => {
    const r = post([reply(503), reply(400), reply(200)], {
      onError: (() => undefined) as unknown as RetryOptions["onError"],
    });
    await expect(r.promise).rejects.toThrow(/LLM 400/);
    expect(r.hits()).toBe(2);
  });
});

describe("postWithRetry: network failures", () => {
  it("retries a thrown fetch with backoff and returns the later success", async () => {
    const infos: ErrorInfo[] = [];
    const boom = new TypeError("network down");
    const r = post([fail(boom), reply(200)], { onError: (i) => (infos.push(i), "retry") });
    expect((await r.promise).status).toBe(200);
    expect(r.hits()).toBe(2);
    expect(infos).toEqual([{ error: boom, attempt: 0, retryable: true }]);
    expect(r.delays[0]).toBeGreaterThanOrEqual(1);
    expect(r.delays[0]).toBeLessThan(101);
  });

  it("throws a NetworkError (code network, the original as its cause) after the last attempt", async () => {
    const boom = new TypeError("network down");
    const r = post([fail(boom)]);
    const error = await rejection(r.promise);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "network", cause: boom });
    expect(isToolnexusError(error)).toBe(true);
    expect(r.hits()).toBe(3);
  });

  it('"fail" throws the NetworkError after 1 hit', async () => {
    const boom = new TypeError("network down");
    const r = post([fail(boom), reply(200)], { onError: () => "fail" });
    expect(await rejection(r.promise)).toMatchObject({ name: "NetworkError", code: "network", cause: boom });
    expect(r.hits()).toBe(1);
  });

  it("the NetworkError names the host only: no path, query or user info from the URL", async () => {
    const f = scripted([fail(new TypeError("fetch failed for https://u:pw@llm.test/v1?key=sk-in-url"))]);
    const error = await rejection(
      postWithRetry(
        "https://u:pw@llm.test/v1/chat?key=sk-in-url",
        { headers: {}, body: "{}" },
        {
          fetch: f.fetch,
          retries: 0,
          retryBaseMs: 0,
        },
      ),
    );
    expect((error as Error).message).toContain("llm.test");
    expect((error as Error).message).not.toMatch(/sk-in-url|pw|\/v1/);
  });

  it("an aborted signal rethrows signal.reason at once: no onError, no retry", async () => {
    const ctl = new AbortController();
    const reason = new Error("stop now");
    let asked = 0;
    const r = post([() => (ctl.abort(reason), fail(new DOMException("aborted", "AbortError"))())], {
      signal: ctl.signal,
      onError: () => (asked++, "retry"),
    });
    expect(await rejection(r.promise)).toBe(reason);
    expect(r.hits()).toBe(1);
    expect(asked).toBe(0);
  });

  it("an abort during the backoff wait rejects with signal.reason and sends nothing more", async () => {
    const ctl = new AbortController();
    const reason = new Error("user cancelled");
    const f = scripted([
      () => {
        setTimeout(() => ctl.abort(reason), 0);
        return new Response("busy", { status: 503 });
      },
      reply(200),
    ]);
    // the real, abortable timer; a long base so only the abort can end the wait
    const promise = postWithRetry(URL_, init, { fetch: f.fetch, retries: 2, retryBaseMs: 20_000, signal: ctl.signal });
    expect(await rejection(promise)).toBe(reason);
    expect(f.hits()).toBe(1);
  });
});

describe("postWithRetry: Retry-After", () => {
  for (const [header, ms] of [
    ["0", 0],
    ["1", 1000],
    [" 1 ", 1000],
    ["01", 1000],
  ] as const) {
    it(`honours Retry-After ${JSON.stringify(header)} as ${ms} ms`, async () => {
      const r = post([reply(429, "", { "Retry-After": header }), reply(200)]);
      expect((await r.promise).status).toBe(200);
      expect(r.delays).toEqual([ms]);
    });
  }

  for (const header of [
    "0.5",
    "-5",
    "+1",
    "1e3",
    "",
    "Wed, 21 Oct 2015 07:28:00 GMT",
    "2147483648",
    "99999999999999999999",
    "soon",
  ]) {
    it(`falls back to backoff for Retry-After ${JSON.stringify(header)}`, async () => {
      const r = post([
        reply(503, "", { "retry-after": header }),
        reply(503, "", { "retry-after": header }),
        reply(200),
      ]);
      expect((await r.promise).status).toBe(200);
      expect(r.delays).toHaveLength(2);
      // retryBaseMs 1: attempt 0 ⇒ 1 + jitter, attempt 1 ⇒ 2 + jitter (jitter < 100)
      expect(r.delays[0]).toBeGreaterThanOrEqual(1);
      expect(r.delays[0]).toBeLessThan(101);
      expect(r.delays[1]).toBeGreaterThanOrEqual(2);
      expect(r.delays[1]).toBeLessThan(102);
    });
  }

  it("fails with the LlmHttpError instead of sleeping past maxRetryAfterMs (default 60 s)", async () => {
    const r = post([reply(429, "slow down", { "Retry-After": "120" }), reply(200)]);
    const error = await rejection(r.promise);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 429, retryAfter: "120", body: "slow down" });
    expect(r.hits()).toBe(1);
    expect(r.delays).toEqual([]);
  });

  it("treats the largest honoured value (2147483647 s) as too long, not as backoff", async () => {
    const r = post([reply(429, "", { "Retry-After": "2147483647" }), reply(200)]);
    await expect(r.promise).rejects.toThrow(/LLM 429/);
    expect(r.hits()).toBe(1);
  });

  it("waits up to maxRetryAfterMs when it is raised", async () => {
    const r = post([reply(429, "", { "Retry-After": "120" }), reply(200)], { maxRetryAfterMs: 200_000 });
    expect((await r.promise).status).toBe(200);
    expect(r.delays).toEqual([120_000]);
  });

  it("waits a recorded Gemini 429's RetryInfo.retryDelay (34.4s, in the body) when there is no header", async () => {
    const r = post([reply(429, geminiQuota.json), reply(200)]);
    expect((await r.promise).status).toBe(200);
    expect(r.delays).toEqual([34_400]);
  });

  it("a retryDelay in whole seconds, or past maxRetryAfterMs (then no sleep); Retry-After wins over it", async () => {
    const body = (delay: string) => JSON.stringify({ error: { details: [{ retryDelay: delay }] } });
    const whole = post([reply(503, body("2s")), reply(200)]);
    await whole.promise;
    expect(whole.delays).toEqual([2_000]);

    const long = post([reply(429, body("90s")), reply(200)]);
    expect(await rejection(long.promise)).toMatchObject({ status: 429, body: body("90s") });
    expect(long.delays).toEqual([]);

    const header = post([reply(429, body("30s"), { "Retry-After": "1" }), reply(200)]);
    await header.promise;
    expect(header.delays).toEqual([1_000]);
  });

  for (const delay of ["-1s", "1.5", "s", "1m", "1.s"]) {
    it(`a retryDelay of ${JSON.stringify(delay)} falls back to backoff`, async () => {
      const r = post([reply(429, JSON.stringify({ error: { details: [{ retryDelay: delay }] } })), reply(200)]);
      await r.promise;
      expect(r.delays[0]).toBeLessThan(101);
    });
  }

  it("caps an exponential backoff at 60 s", async () => {
    const r = post([reply(503), reply(200)], { retryBaseMs: 100_000 });
    await r.promise;
    expect(r.delays).toEqual([60_000]);
  });

  it("the wait receives the run's signal", async () => {
    const ctl = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const f = scripted([reply(503), reply(200)]);
    await postWithRetry(URL_, init, {
      fetch: f.fetch,
      retries: 1,
      retryBaseMs: 1,
      signal: ctl.signal,
      sleep: async (_ms, s) => void signals.push(s),
    });
    expect(signals).toEqual([ctl.signal]);
  });
});

describe("postWithRetry: credentials never reach an error", () => {
  it("redacts the request's key when the provider echoes it", async () => {
    const key = "sk-test-0123456789abcdef";
    const headers = {
      Authorization: `Bearer ${key}`,
      "x-api-key": "custom-key-value-42",
      "Content-Type": "application/json",
    };
    const body = `{"error":{"message":"Incorrect API key provided: ${key}; x-api-key custom-key-value-42 rejected"}}`;
    const f = scripted([reply(400, body)]);
    const error = (await rejection(
      postWithRetry(URL_, { headers, body: "{}" }, { fetch: f.fetch, retries: 0, retryBaseMs: 1 }),
    )) as LlmHttpError;
    const everything = `${error.message} ${error.body} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(everything).not.toContain(key);
    expect(everything).not.toContain("custom-key-value-42");
    expect(error.body).toContain("Incorrect API key provided");
  });

  it("a 401 keeps neither body nor credential", async () => {
    const key = "sk-live-abcdefabcdef1234";
    const f = scripted([reply(401, `{"error":"bad key ${key}"}`)]);
    const error = (await rejection(
      postWithRetry(
        URL_,
        { headers: { Authorization: `Bearer ${key}` }, body: "{}" },
        { fetch: f.fetch, retries: 2, retryBaseMs: 1 },
      ),
    )) as LlmHttpError;
    expect(error).toMatchObject({ status: 401, body: "", message: "LLM 401" });
    expect(f.hits()).toBe(1);
  });
});
