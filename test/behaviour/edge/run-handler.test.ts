// createRunHandler: a new run and a resume over one endpoint, and what it does with a hostile client —
// every refusal a 4xx with { error: { code, message } }, nothing stored, nothing run.
import { describe, expect, it } from "vitest";
import { answerOutput, createClient, createRunHandler, readEventStream } from "toolnexus";
import { API_KEY, doneOf, edgeWorld, framesOf, HEADER_VALUE, SYSTEM_PROMPT } from "../../support/edge";
import { scripted } from "../../support/scripted";

async function errorBody(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("createRunHandler: runs", () => {
  it("POST { prompt } streams a new run; the done result has no transcript", async () => {
    const w = edgeWorld();
    const res = await w.post({ prompt: "hello there" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await framesOf(res);
    const text = events.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
    expect(text).toBe("You said: hello there");
    expect(doneOf(events)).toMatchObject({ status: "done", text: "You said: hello there" });
    expect("messages" in doneOf(events)).toBe(false);
  });

  it("POST { runId, answer } resumes the halted run: the tool runs once, with the answer", async () => {
    const w = edgeWorld();
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    expect(halted.status).toBe("pending");
    expect(halted.pending).toMatchObject({ kind: "question", prompt: "Which city?" });
    const answer = answerOutput(halted.pending.id, "Chennai");
    const done = doneOf(await framesOf(await w.post({ runId: halted.runId, answer })));
    expect(done).toMatchObject({ status: "done", text: "Done: city Chennai" });
    expect(w.executions).toEqual(["ask_city:Chennai"]);
  });

  it("POST { prompt, conversationId } continues that conversation: the model sees its earlier exchanges", async () => {
    const w = edgeWorld();
    const say = async (prompt: string, conversationId: string) =>
      doneOf(await framesOf(await w.post({ prompt, conversationId }))).text;
    expect(await say("hello there", "conv-a")).toBe("You said: hello there");
    expect(await say("book it", "conv-a")).toBe("You said: book it");
    expect(await say("what did I say?", "conv-a")).toBe("Earlier: hello there / book it");
    expect(await say("what did I say?", "conv-b")).toBe("Earlier: nothing"); // another conversation
    expect(await say("what did I say?", "conv-a")).toBe("Earlier: hello there / book it / what did I say?");
  });

  it("a conversation's question answered through the handler: the next prompt follows on from the answer", async () => {
    const w = edgeWorld();
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?", conversationId: "conv-q" })));
    const answer = answerOutput(halted.pending.id, "Chennai");
    await framesOf(await w.post({ runId: halted.runId, answer }));
    const next = doneOf(await framesOf(await w.post({ prompt: "what did I say?", conversationId: "conv-q" })));
    expect(next.text).toBe("Earlier: which city?");
    expect(w.executions).toEqual(["ask_city:Chennai"]);
  });

  it("POST { runId, answers: [] } continues a run left ready; on a run still waiting it is refused and consumes nothing", async () => {
    const w = edgeWorld({ failsAfterTool: 1 });
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    const waiting = await w.post({ runId: halted.runId, answers: [] });
    expect(waiting.status).toBe(400);
    expect((await errorBody(waiting)).code).toBe("invalid_answer");
    const failed = await framesOf(
      await w.post({ runId: halted.runId, answer: answerOutput(halted.pending.id, "Oslo") }),
    );
    expect(failed.at(-1)).toMatchObject({ type: "error" }); // the tool ran, then the model failed
    expect(((await (await w.get(halted.runId)).json()) as { status: string }).status).toBe("ready");
    const done = doneOf(await framesOf(await w.post({ runId: halted.runId, answers: [] })));
    expect(done).toMatchObject({ status: "done", text: "Done: city Oslo" });
    expect(w.executions).toEqual(["ask_city:Oslo"]);
  });

  it("a resume of the same answer again does not run the tool again", async () => {
    const w = edgeWorld();
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    const body = { runId: halted.runId, answer: answerOutput(halted.pending.id, "Lima") };
    await framesOf(await w.post(body));
    const again = await w.post({ ...body, answer: answerOutput(halted.pending.id, "Berlin") });
    expect(again.status).toBe(409);
    expect((await errorBody(again)).code).toBe("run_conflict");
    expect(w.executions).toEqual(["ask_city:Lima"]);
  });

  it("an unknown runId is a 404 run_not_found before any stream starts", async () => {
    const w = edgeWorld();
    const res = await w.post({ runId: "run-nope", answer: answerOutput("q-1", "x") });
    expect(res.status).toBe(404);
    expect(await errorBody(res)).toMatchObject({ code: "run_not_found" });
  });

  it("the stream never carries the system prompt, the API key or a configured header value", async () => {
    const model = scripted("openai", [{ text: "Hi! " }]);
    const w = edgeWorld({ model }); // a real client with a key, a header value and a system prompt
    const raw = await (await w.post({ prompt: "a message of the user" })).text();
    expect(raw).toContain("Hi! ");
    for (const secret of [API_KEY, HEADER_VALUE, SYSTEM_PROMPT, '"messages"', '"role"'])
      expect(raw).not.toContain(secret);
    expect(model.headers[0]!.authorization).toBe(`Bearer ${API_KEY}`); // it was really configured
  });

  it("a provider error that echoes the key is a 502 whose body holds neither key nor header value", async () => {
    const fetch = async () =>
      Response.json({ error: { message: `bad key ${API_KEY} for ${HEADER_VALUE}` } }, { status: 401 });
    const res = await edgeWorld({ model: { fetch } }).post({ prompt: "hi" });
    expect(res.status).toBe(502);
    const raw = await res.text();
    expect(JSON.parse(raw).error.code).toBe("llm_http");
    expect(raw).toContain("401");
    expect(raw).not.toContain(API_KEY);
    expect(raw).not.toContain(HEADER_VALUE);
  });

  it("a refused model connection reaches the page as a 502 network error, without the URL's secrets", async () => {
    const client = createClient({
      baseUrl: "https://user:pw-SECRET@llm.test/v1",
      style: "openai",
      model: "m",
      retries: 0,
      fetch: async () => {
        throw new TypeError("fetch failed: connect ECONNREFUSED 127.0.0.1:9 (pw-SECRET)");
      },
    });
    const handler = createRunHandler({ client });
    const req = new Request("http://edge.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "hi" }),
    });
    let caught: unknown;
    try {
      for await (const _ of readEventStream(await handler(req)));
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "network" });
    expect((caught as Error).message).not.toContain("pw-SECRET");
  });
});

describe("createRunHandler: a hostile client gets a 4xx, and nothing is stored or run", () => {
  async function refused(
    w: ReturnType<typeof edgeWorld>,
    res: Response | Promise<Response>,
    status: number,
    code: string,
  ) {
    const before = { writes: w.storage.writes(), runs: w.executions.length };
    const response = await res;
    expect(response.status).toBe(status);
    const error = await errorBody(response);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^toolnexus: /);
    expect({ writes: w.storage.writes(), runs: w.executions.length }).toEqual(before);
    return error;
  }

  it("malformed JSON: 400 bad_request", async () => {
    const w = edgeWorld();
    await refused(w, w.post('{"prompt": "hi"'), 400, "bad_request");
    await refused(w, w.post("[1, 2]"), 400, "bad_request");
    await refused(w, w.post('"just a string"'), 400, "bad_request");
    await refused(w, w.post(""), 400, "bad_request");
    expect(w.storage.writes()).toBe(0);
  });

  it("a body that is not UTF-8: 400 bad_request", async () => {
    const w = edgeWorld();
    const res = w.handler(
      new Request("http://edge.test/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      }),
    );
    await refused(w, res, 400, "bad_request");
  });

  it("the wrong content type: 415 unsupported_media_type, even with a valid JSON body", async () => {
    const w = edgeWorld();
    await refused(w, w.post({ prompt: "hi" }, { "content-type": "text/plain" }), 415, "unsupported_media_type");
    await refused(
      w,
      w.post({ prompt: "hi" }, { "content-type": "application/x-www-form-urlencoded" }),
      415,
      "unsupported_media_type",
    );
    await refused(w, w.post({ prompt: "hi" }, {}), 415, "unsupported_media_type");
  });

  it("a body over maxBodyBytes: 413 payload_too_large, counted while reading", async () => {
    const w = edgeWorld({ maxBodyBytes: 1024 });
    await refused(w, w.post({ prompt: "x".repeat(2000) }), 413, "payload_too_large");
    // streamed, with no Content-Length to trust: counted chunk by chunk, and the reading stops there
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode(pulled === 1 ? '{"prompt":"' : "x".repeat(256)));
      },
    });
    const req = new Request("http://edge.test/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: endless,
      duplex: "half",
    } as RequestInit);
    await refused(w, w.handler(req), 413, "payload_too_large");
    expect(pulled).toBeLessThan(20);
    // just under the limit is fine
    const ok = await w.post({ prompt: "y".repeat(900) });
    expect(ok.status).toBe(200);
  });

  it("missing or wrong fields: 400 bad_request naming what to send", async () => {
    const w = edgeWorld();
    await refused(w, w.post({}), 400, "bad_request");
    await refused(w, w.post({ prompt: "   " }), 400, "bad_request");
    await refused(w, w.post({ prompt: 42 }), 400, "bad_request");
    await refused(w, w.post({ prompt: "hi", conversationId: 7 }), 400, "bad_request");
    await refused(w, w.post({ runId: "", answer: answerOutput("q", "x") }), 400, "bad_request");
    await refused(w, w.post({ runId: "r".repeat(300), answer: answerOutput("q", "x") }), 400, "bad_request");
    await refused(w, w.post({ runId: "run-1" }), 400, "bad_request");
    await refused(w, w.post({ runId: "run-1", answers: "not a list" }), 400, "bad_request"); // [] continues a ready run (below)
    const a = answerOutput("q", "x");
    await refused(w, w.post({ runId: "run-1", answer: a, answers: [a] }), 400, "bad_request");
    await refused(w, w.post({ runId: "run-1", answer: a, token: 12 }), 400, "bad_request");
  });

  it("an answer that is not an Answer: 400 invalid_answer naming the field; the run is still open", async () => {
    const w = edgeWorld();
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    const error = await refused(
      w,
      w.post({ runId: halted.runId, answer: { id: halted.pending.id, ok: "yes" } }),
      400,
      "invalid_answer",
    );
    expect(error.message).toContain("ok");
    await refused(w, w.post({ runId: halted.runId, answers: [{ ok: true }] }), 400, "invalid_answer");
    const done = doneOf(
      await framesOf(await w.post({ runId: halted.runId, answer: answerOutput(halted.pending.id, "Lima") })),
    );
    expect(done.text).toBe("Done: city Lima");
  });

  it("an answer for another run's request: 409 answer_mismatch; both runs stay open", async () => {
    const w = edgeWorld();
    const a = doneOf(await framesOf(await w.post({ prompt: "which city? (a)" })));
    const b = doneOf(await framesOf(await w.post({ prompt: "which city? (b)" })));
    await refused(w, w.post({ runId: a.runId, answer: answerOutput(b.pending.id, "Lima") }), 409, "answer_mismatch");
    const doneA = doneOf(await framesOf(await w.post({ runId: a.runId, answer: answerOutput(a.pending.id, "Lima") })));
    const doneB = doneOf(await framesOf(await w.post({ runId: b.runId, answer: answerOutput(b.pending.id, "Pune") })));
    expect([doneA.text, doneB.text]).toEqual(["Done: city Lima", "Done: city Pune"]);
    expect(w.executions).toEqual(["ask_city:Lima", "ask_city:Pune"]);
  });

  it("a forged or foreign token: 403 resume_token; the run is still open", async () => {
    const w = edgeWorld({ resumeSecret: "resume-secret-for-edge-tests-0123456789" });
    const halted = doneOf(await framesOf(await w.post({ prompt: "which city?" })));
    const answer = answerOutput(halted.pending.id, "Lima");
    for (const token of ["tn1.e30.AAAA", "not-a-token", `tn1.${btoa('{"r":"x","q":"y","e":1}')}.c2ln`]) {
      await refused(w, w.post({ runId: halted.runId, answer, token }), 403, "resume_token");
    }
    const done = doneOf(await framesOf(await w.post({ runId: halted.runId, answer })));
    expect(done.text).toBe("Done: city Lima");
  });

  it("other methods: 405 with Allow; GET without runId: 400", async () => {
    const w = edgeWorld();
    const put = await w.handler(new Request("http://edge.test/api/run", { method: "PUT", body: "{}" }));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect((await errorBody(put)).code).toBe("method_not_allowed");
    await refused(w, w.handler(new Request("http://edge.test/api/run")), 400, "bad_request");
  });

  it("createRunHandler refuses a missing client and a bad maxBodyBytes at once", () => {
    expect(() => createRunHandler({} as never)).toThrow(/client must be a client made by createClient/);
    const { client } = edgeWorld();
    expect(() => createRunHandler({ client, maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  });
});
