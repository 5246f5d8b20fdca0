// Durable halt and client.resume, every style, run and streamed.
import { describe, expect, it } from "vitest";
import {
  AnswerMismatchError,
  answerDeclined,
  answerOutput,
  createClient,
  defineTool,
  InvalidAnswerError,
  memoryStorage,
  pending,
  relayAnswer,
  relayTool,
  RunConflictError,
  RunNotFoundError,
  RunStateError,
  StorageError,
  type RunStorage,
  type ToolContext,
} from "toolnexus";
import { MODES, resumeIn, runIn, ALL_STYLES, types } from "../../support/drive";
import { naturalStorage } from "../../support/natural-storage";
import { scripted, toolResultsIn, userTurnsIn } from "../../support/scripted";
import { asPending } from "../../support/results";

function kit() {
  const runs: Record<string, number> = {};
  const answers: ToolContext["answer"][] = [];
  const count = (n: string) => (runs[n] = (runs[n] ?? 0) + 1);
  const tools = [
    defineTool({
      name: "ask_city",
      description: "asks for a city",
      execute: (_a, ctx) => {
        count("ask_city");
        if (!ctx?.answer) return pending({ kind: "input", prompt: "Which city?", id: "q-city" });
        answers.push(ctx.answer);
        return `city=${ctx.answer.data?.output}`;
      },
    }),
    defineTool({
      name: "approve",
      description: "asks for approval",
      execute: (_a, ctx) => {
        count("approve");
        if (!ctx?.answer) return pending({ kind: "approval", prompt: "Book it?", id: "q-book" });
        return "booked";
      },
    }),
    defineTool({ name: "clock", description: "no suspension", execute: () => (count("clock"), "12:00") }),
  ];
  return { tools, runs, answers };
}

for (const style of ALL_STYLES) {
  for (const mode of MODES) {
    describe(`resume (${style}, ${mode})`, () => {
      const base = { baseUrl: "https://llm.test/v1", style, model: "m", apiKey: "sk-secret-key-123" } as const;

      it("halts into storage and resumes in a new client with a fresh toolkit: the tool re-runs with ctx.answer", async () => {
        const storage = memoryStorage();
        const s = scripted(style, [
          { calls: [{ name: "ask_city" }] },
          (b) => ({ text: `final: ${toolResultsIn(b).join("|")}` }),
        ]);
        const first = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(first, mode, "weather?", { toolkit: kit().tools })).result);
        expect(halted.status).toBe("pending");
        const stored = await storage.get(`run:${halted.runId}`);
        expect(stored).toBeDefined();
        expect(stored).not.toContain("sk-secret-key-123");

        const k = kit(); // a freshly built toolkit: tools are found by name
        const second = createClient({ ...base, fetch: s.fetch, storage });
        const { result, events } = await resumeIn(second, mode, halted.runId, answerOutput("q-city", "Chennai"), {
          toolkit: k.tools,
        });
        expect(result.status).toBe("done");
        expect(result.text).toBe("final: city=Chennai");
        expect(k.answers).toEqual([answerOutput("q-city", "Chennai")]);
        expect(s.bodies).toHaveLength(2);
        expect(userTurnsIn(s.bodies[1]!)).toBe(1); // no new user turn
        expect(toolResultsIn(s.bodies[1]!)).toEqual(["city=Chennai"]); // re-executed, never spliced
        expect(result.usage.totalTokens).toBe(30);
        expect(result.turns).toBe(2);
        if (mode === "stream") expect(types(events)).toContain("tool_result");
      });

      it("answers every suspension of a turn before calling the model; finished calls never run again", async () => {
        const storage = memoryStorage();
        const k = kit();
        const s = scripted(style, [
          { calls: [{ name: "ask_city" }, { name: "clock" }, { name: "approve" }] },
          (b) => ({ text: toolResultsIn(b).join("|") }),
        ]);
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "plan a trip", { toolkit: k.tools })).result);
        expect(halted.pending.id).toBe("q-city");
        expect(k.runs).toEqual({ ask_city: 1, clock: 1, approve: 1 });

        const again = asPending(
          (await resumeIn(client, mode, halted.runId, answerOutput("q-city", "Goa"), { toolkit: k.tools })).result,
        );
        expect(again.status).toBe("pending");
        expect(again.runId).toBe(halted.runId);
        expect(again.pending.id).toBe("q-book");
        expect(s.bodies).toHaveLength(1); // the model waits for the whole turn

        const done = (await resumeIn(client, mode, halted.runId, { id: "q-book", ok: true }, { toolkit: k.tools }))
          .result;
        expect(done.status).toBe("done");
        expect(done.text).toBe("city=Goa|12:00|booked");
        expect(k.runs).toEqual({ ask_city: 2, clock: 1, approve: 2 });
        expect(toolResultsIn(s.bodies[1]!)).toHaveLength(3); // balanced: one result per call
      });

      it("a wrong answer id is AnswerMismatchError and leaves the run resumable", async () => {
        const storage = memoryStorage();
        const k = kit();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "ok" }]);
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: k.tools })).result);
        const before = await storage.get(`run:${halted.runId}`);
        await expect(
          resumeIn(client, mode, halted.runId, answerOutput("q-other", "Pune"), { toolkit: k.tools }),
        ).rejects.toThrow(AnswerMismatchError);
        expect(await storage.get(`run:${halted.runId}`)).toBe(before);
        expect(k.runs.ask_city).toBe(1);
        expect(
          (await resumeIn(client, mode, halted.runId, answerOutput("q-city", "Pune"), { toolkit: k.tools })).result
            .status,
        ).toBe("done");
      });

      it("declined answers become declined/expired results", async () => {
        const k = kit();
        const s = scripted(style, [{ calls: [{ name: "approve" }] }, (b) => ({ text: toolResultsIn(b)[0]! })]);
        const client = createClient({ ...base, fetch: s.fetch });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: k.tools })).result);
        const { result } = await resumeIn(client, mode, halted.runId, answerDeclined("q-book"), { toolkit: k.tools });
        expect(result.text).toBe("declined/expired: Book it?");
        expect(k.runs.approve).toBe(1);
      });

      it("an unknown or corrupt run is named before an invalid answer; a stored run's invalid answer changes nothing", async () => {
        const storage = memoryStorage();
        const client = createClient({
          ...base,
          fetch: scripted(style, [{ calls: [{ name: "ask_city" }] }]).fetch,
          storage,
        });
        const hostile = { id: "q-city", ok: true, data: { output: Number.NaN } } as never;
        await expect(client.resume("run-missing", hostile)).rejects.toThrow(RunNotFoundError);
        await storage.set("run:run-bad", "{not json");
        await expect(client.resume("run-bad", hostile)).rejects.toThrow(RunStateError);
        const k = kit();
        const halted = asPending((await runIn(client, mode, "Plan a trip", { toolkit: k.tools })).result);
        const stored = await storage.get(`run:${halted.runId}`);
        await expect(client.resume(halted.runId, hostile, { toolkit: k.tools })).rejects.toThrow(InvalidAnswerError);
        expect(await storage.get(`run:${halted.runId}`)).toBe(stored);
      });

      it("unknown and corrupt runs are typed errors", async () => {
        const storage = memoryStorage();
        const client = createClient({ ...base, fetch: scripted(style, []).fetch, storage });
        await expect(client.resume("run-missing", answerOutput("a", "b"))).rejects.toThrow(RunNotFoundError);
        await storage.set("run:run-bad", "{not json");
        await expect(client.resume("run-bad", answerOutput("a", "b"))).rejects.toThrow(RunStateError);
        await storage.set("run:run-v9", JSON.stringify({ v: 9, runId: "run-v9" }));
        await expect(client.resume("run-v9", answerOutput("a", "b"))).rejects.toThrow("version 9");
        await storage.set("run:run-shape", JSON.stringify({ v: 1, runId: "run-shape", status: "suspended" }));
        await expect(client.resume("run-shape", answerOutput("a", "b"))).rejects.toThrow(RunStateError);
        // a problem deep in the record is named by its path
        const halted = asPending(
          (
            await runIn(
              createClient({ ...base, fetch: scripted(style, [{ calls: [{ name: "ask_city" }] }]).fetch, storage }),
              mode,
              "x",
              { toolkit: kit().tools },
            )
          ).result,
        );
        const stored = JSON.parse((await storage.get(`run:${halted.runId}`))!);
        stored.calls[0].args = "not an object";
        const damaged = JSON.stringify(stored);
        await storage.set(`run:${halted.runId}`, damaged);
        await expect(client.resume(halted.runId, answerOutput("q-city", "Delhi"))).rejects.toThrow(
          '"calls.0.args" must be a JSON object, got string',
        );
        expect(await storage.get(`run:${halted.runId}`)).toBe(damaged);
        expect(await storage.get("run:run-bad")).toBe("{not json");
      });

      it("a repeated identical answer gets the stored outcome; a different one conflicts; the tool ran once", async () => {
        const storage = memoryStorage();
        const k = kit();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "done once" }]);
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: k.tools })).result);
        const a = answerOutput("q-city", "Delhi");
        const first = (await resumeIn(client, mode, halted.runId, a, { toolkit: k.tools })).result;
        const second = (await resumeIn(client, mode, halted.runId, JSON.parse(JSON.stringify(a)), { toolkit: k.tools }))
          .result;
        expect(second).toEqual(first);
        await expect(client.resume(halted.runId, answerOutput("q-city", "Agra"), { toolkit: k.tools })).rejects.toThrow(
          RunConflictError,
        );
        expect(k.runs.ask_city).toBe(2);
        expect(s.bodies).toHaveLength(2);
      });

      it("the record stays claimed while the resumed model call runs: the same answer is refused meanwhile, and retries once that call failed", async () => {
        const storage = memoryStorage();
        const k = kit();
        const a = answerOutput("q-city", "Pune");
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "after retry" }]);
        let runId = "";
        let during: { stored: string; second: unknown } | undefined;
        let calls = 0;
        const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
          if (++calls !== 2) return s.fetch(input, init);
          // inside the resumed model call: the stored record is the claim, and a second resume is refused
          const stored = (await storage.get(`run:${runId}`))!;
          const second = await client.resume(runId, a, { toolkit: k.tools }).catch((e: unknown) => e);
          during = { stored, second };
          return new Response("bad request", { status: 400 });
        }) as typeof globalThis.fetch;
        const client = createClient({ ...base, fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: k.tools })).result);
        runId = halted.runId;
        const before = JSON.parse((await storage.get(`run:${runId}`))!);
        await expect(resumeIn(client, mode, runId, a, { toolkit: k.tools })).rejects.toThrow();
        // the checkpoint: still claimed (under a lease), the answered call's result already kept
        const claimed = JSON.parse(during!.stored);
        expect(claimed).toMatchObject({ status: "claimed", messages: before.messages });
        expect(claimed.calls.map((c: { id: string }) => c.id)).toEqual(before.calls.map((c: { id: string }) => c.id));
        expect(claimed.calls[0].result).toMatchObject({ isError: false });
        expect(claimed.lease.until).toBeGreaterThan(Date.now());
        expect(Date.parse(claimed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
        expect(during!.second).toBeInstanceOf(RunConflictError);
        expect(JSON.parse((await storage.get(`run:${runId}`))!)).toMatchObject({
          status: "ready",
          answered: { requestId: "q-city" },
        });
        const done = (await resumeIn(client, mode, runId, a, { toolkit: k.tools })).result;
        expect(done.text).toBe("after retry");
        expect(k.runs.ask_city).toBe(2); // halted once, re-ran once with the answer; the retry ran no tool
      });

      it("100 concurrent resumes of one suspension: the tool runs once, the rest get typed errors", async () => {
        const storage = memoryStorage();
        const k = kit();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "once" }]);
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: k.tools })).result);
        const settled = await Promise.allSettled(
          Array.from({ length: 100 }, (_, i) =>
            client.resume(halted.runId, answerOutput("q-city", `City ${i}`), { toolkit: k.tools }),
          ),
        );
        const ok = settled.filter((r) => r.status === "fulfilled");
        expect(ok).toHaveLength(1);
        expect(
          settled
            .filter((r) => r.status === "rejected")
            .every((r) => (r as PromiseRejectedResult).reason instanceof RunConflictError),
        ).toBe(true);
        expect(k.runs.ask_city).toBe(2);
        expect(s.bodies).toHaveLength(2);
      });

      it("relay calls: one Request for all of a turn's relay calls, answered with relayAnswer", async () => {
        const lookup = relayTool("lookup", "host-side lookup", {
          type: "object",
          properties: { q: { type: "string" } },
        });
        const s = scripted(style, [
          {
            calls: [
              { id: "r1", name: "lookup", args: { q: "a" } },
              { id: "r2", name: "lookup", args: { q: "b" } },
            ],
          },
          (b) => ({ text: toolResultsIn(b).join("|") }),
        ]);
        const client = createClient({ ...base, fetch: s.fetch });
        const halted = asPending((await runIn(client, mode, "x", { toolkit: [lookup] })).result);
        expect(halted.pending.kind).toBe("tool_call");
        const calls = halted.pending.data!.calls as { id: string; name: string; input: unknown }[];
        expect(calls.map((c) => [c.id, c.input])).toEqual([
          ["r1", { q: "a" }],
          ["r2", { q: "b" }],
        ]);
        await expect(
          client.resume(halted.runId, { id: halted.pending.id, ok: true, data: { value: "x" } }, { toolkit: [lookup] }),
        ).rejects.toThrow(InvalidAnswerError);
        await expect(
          client.resume(halted.runId, { id: halted.pending.id, ok: true, data: { value: "x" } }, { toolkit: [lookup] }),
        ).rejects.toThrow("answerOutput");
        const { result } = await resumeIn(
          client,
          mode,
          halted.runId,
          relayAnswer(halted.pending.id, [
            { id: "r1", output: "A" },
            { id: "r2", output: "B", isError: true },
          ]),
          { toolkit: [lookup] },
        );
        expect(result.text).toBe("A|B");
        expect(result.toolCalls.map((c) => c.isError)).toEqual([false, true]);
      });

      it("a failing storage write while halting rejects with StorageError carrying the record, which resumes elsewhere", async () => {
        const good = memoryStorage();
        const broken: RunStorage = {
          ...good,
          capabilities: good.capabilities,
          get: (k) => good.get(k),
          delete: (k) => good.delete(k),
          set: async () => {
            throw new Error("disk full");
          },
        };
        const k = kit();
        const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "recovered" }]);
        const client = createClient({ ...base, fetch: s.fetch, storage: broken });
        let caught: unknown;
        try {
          await runIn(client, mode, "x", { toolkit: k.tools });
        } catch (e) {
          caught = e;
        }
        expect(caught).toBeInstanceOf(StorageError);
        const record = (caught as StorageError).record!;
        expect(record).not.toContain("sk-secret-key-123");
        const runId = JSON.parse(record).runId as string;
        await good.set(`run:${runId}`, record);
        const rescued = createClient({ ...base, fetch: s.fetch, storage: good });
        expect(
          (await resumeIn(rescued, mode, runId, answerOutput("q-city", "Kochi"), { toolkit: k.tools })).result.text,
        ).toBe("recovered");
      });
    });
  }
}

const natural = naturalStorage();

describe(`resume on this runtime's natural storage (${natural.name})`, () => {
  for (const style of ALL_STYLES) {
    const base = { baseUrl: "https://llm.test/v1", style, model: "m", apiKey: "sk-secret-key-123" } as const;

    it(`halts, resumes one of two suspensions, then the other, in fresh clients (${style})`, async () => {
      const storage = await natural.make();
      const s = scripted(style, [
        { calls: [{ name: "ask_city" }, { name: "clock" }, { name: "approve" }] },
        (b) => ({ text: toolResultsIn(b).join("|") }),
      ]);
      const k = kit();
      const halted = asPending(
        await createClient({ ...base, fetch: s.fetch, storage }).run("trip", { toolkit: k.tools }),
      );
      const mid = await createClient({ ...base, fetch: s.fetch, storage }).resume(
        halted.runId,
        answerOutput("q-city", "Madurai"),
        { toolkit: kit().tools },
      );
      expect(mid).toMatchObject({ status: "pending", runId: halted.runId, pending: { id: "q-book" } });
      const done = await createClient({ ...base, fetch: s.fetch, storage }).resume(
        halted.runId,
        { id: "q-book", ok: true },
        { toolkit: kit().tools },
      );
      expect(done.text).toBe("city=Madurai|12:00|booked");
      expect(k.runs.clock).toBe(1);
    });

    it(`a wrong id, then 20 racing resumes: one wins, the tool runs once (${style})`, async () => {
      const storage = await natural.make();
      const s = scripted(style, [{ calls: [{ name: "ask_city" }] }, { text: "once" }]);
      const k = kit();
      const client = createClient({ ...base, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      await expect(client.resume(halted.runId, answerOutput("nope", "x"), { toolkit: k.tools })).rejects.toThrow(
        AnswerMismatchError,
      );
      const settled = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          client.resume(halted.runId, answerOutput("q-city", `C${i}`), { toolkit: k.tools }),
        ),
      );
      expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(
        settled
          .filter((r) => r.status === "rejected")
          .every((r) => (r as PromiseRejectedResult).reason instanceof RunConflictError),
      ).toBe(true);
      expect(k.runs.ask_city).toBe(2);
    });
  }
});
