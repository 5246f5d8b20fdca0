// Exactly once on the paths real pages and edge functions walk, for the OpenAI and Anthropic wires alike: a
// reader that walks away, a retry after a failed model call or a throwing hook, refused resumes that must
// consume nothing, answers in any order or twice — each as the outcome a user would check (how often a tool
// ran, what is stored, what the model received). docs/guide/reliability.md indexes them.
import {
  answerOutput,
  ConfigError,
  createClient,
  InvalidAnswerError,
  RunConflictError,
  type Answer,
  type RunResult,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../../support/results";
import { naturalStorage } from "../../support/natural-storage";
import { toolResultsIn } from "../../support/scripted";
import { base, kit, model } from "../../support/exactly-once";

const natural = naturalStorage();

for (const style of ["openai", "anthropic"] as const) {
  describe(`exactly once (${style})`, () => {
    it("a reader that walks away mid-resume gives the claim back: the same answer finishes the run, the tool ran once, its result kept", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: `end ${seen}` } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      for await (const event of client.resumeStream(halted.runId!, answerOutput("q-city", "Oslo"), {
        toolkit: k.tools,
      })) {
        if (event.type === "tool_result") break; // the tab closed
      }
      expect((await client.inspect(halted.runId!))?.status).toBe("ready");
      const done = await client.resume(halted.runId!, answerOutput("q-city", "Oslo"), { toolkit: k.tools });
      expect(done.text).toBe("end ask_city=Oslo");
      expect(k.runs.ask_city).toBe(1);
    });

    it("a retry after a failed model call in a later turn runs none of the tools the resumed run already ran", async () => {
      const storage = await natural.make();
      const k = kit();
      let fail = true;
      const s = model(style, (seen) => {
        if (!seen) return { calls: [{ name: "ask_city" }] };
        if (!seen.includes("charge")) return { calls: [{ name: "charge" }] };
        return { text: `paid: ${seen}` };
      });
      const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body));
        if (fail && toolResultsIn(body).some((r: string) => r.includes("charge"))) {
          fail = false;
          return new Response('{"error":{"message":"overloaded"}}', { status: 400 });
        }
        return s.fetch(input, init);
      }) as typeof globalThis.fetch;
      const client = createClient({ ...base, style, fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-city", "Rome");
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools })).rejects.toThrow();
      const done = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(done.text).toBe("paid: ask_city=Rome|charge done");
      expect(k.runs).toMatchObject({ ask_city: 1, charge: 1 });
    });

    it("an afterTool hook that throws after the tool ran: the retry never runs it again, the model is told it was interrupted", async () => {
      const storage = await natural.make();
      const k = kit();
      let throwOnce = true;
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({
        ...base,
        style,
        fetch: s.fetch,
        storage,
        hooks: {
          afterTool: () => {
            if (throwOnce) {
              throwOnce = false;
              throw new Error("audit log down");
            }
          },
        },
      });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-city", "Pune");
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools })).rejects.toThrow("audit log down");
      const done = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(done.text).toBe("interrupted: ask_city did not finish");
      expect(k.runs.ask_city).toBe(1);
    });

    it("refused resumes consume nothing: a toolkit without the tool, an aborted signal, a null answer — then the right resume works", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const key = `run:${halted.runId}`;
      const before = await storage.get(key);
      const a = answerOutput("q-city", "Lima");
      const missing = await client.resume(halted.runId!, a, { toolkit: [] }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(ConfigError);
      expect((missing as ConfigError).message).toContain('"ask_city"');
      const aborted = AbortSignal.abort(new Error("user left"));
      await expect(client.resume(halted.runId!, a, { toolkit: k.tools, signal: aborted })).rejects.toThrow("user left");
      await expect(client.resume(halted.runId!, null as unknown as Answer, { toolkit: k.tools })).rejects.toThrow(
        InvalidAnswerError,
      );
      await expect(client.resume(halted.runId!, [a, a], { toolkit: k.tools })).rejects.toThrow(InvalidAnswerError);
      expect(await storage.get(key)).toBe(before);
      expect(k.runs.ask_city).toBeUndefined();
      expect((await client.resume(halted.runId!, a, { toolkit: k.tools })).text).toBe("ask_city=Lima");
    });

    it("a bad option is a ConfigError from createClient itself, naming it", () => {
      for (const [option, value] of [
        ["completedTtlSeconds", Number.NaN],
        ["completedTtlSeconds", "3600"],
        ["retries", -1],
        ["claimLeaseMs", 0],
        ["pendingTtlSeconds", "1d"],
        ["timeoutMs", Number.POSITIVE_INFINITY],
        // longer than a timer can wait: it would fire at once and cut every run or tool call off
        ["timeoutMs", 2 ** 31],
        ["toolTimeoutMs", 3e9],
        ["headers", { "X-Key": 5 }],
      ] as const) {
        let error: unknown;
        try {
          createClient({ ...base, style, [option]: value } as never);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect({ option: (error as ConfigError).option, named: (error as Error).message.includes(option) }).toEqual({
          option,
          named: true,
        });
      }
    });

    it("three open requests of one turn are answered in every order, one at a time or together; the model is called once, balanced", async () => {
      const orders = [
        ["q-city", "q-date", "q-seat"],
        ["q-city", "q-seat", "q-date"],
        ["q-date", "q-city", "q-seat"],
        ["q-date", "q-seat", "q-city"],
        ["q-seat", "q-city", "q-date"],
        ["q-seat", "q-date", "q-city"],
      ];
      const answerFor = (id: string) => answerOutput(id, id.slice(2));
      for (const order of [...orders, "together"] as const) {
        const storage = await natural.make();
        const k = kit();
        const s = model(style, (seen) =>
          seen ? { text: seen } : { calls: [{ name: "ask_city" }, { name: "ask_date" }, { name: "ask_seat" }] },
        );
        const client = createClient({ ...base, style, fetch: s.fetch, storage });
        const halted = asPending(await client.run("x", { toolkit: k.tools }));
        expect(halted.requests?.map((r) => r.id)).toEqual(["q-city", "q-date", "q-seat"]);
        let result: RunResult = halted;
        if (order === "together") {
          result = await client.resume(halted.runId!, ["q-seat", "q-city", "q-date"].map(answerFor), {
            toolkit: k.tools,
          });
        } else {
          for (const [i, id] of order.entries()) {
            result = await client.resume(halted.runId!, answerFor(id), { toolkit: k.tools });
            const left = order.slice(i + 1);
            expect(result.status).toBe(left.length ? "pending" : "done");
            if (left.length) {
              expect(asPending(result).runId).toBe(halted.runId);
              expect(
                asPending(result)
                  .requests.map((r) => r.id)
                  .sort(),
              ).toEqual([...left].sort());
              expect((await client.inspect(halted.runId!))?.requests.map((r) => r.id).sort()).toEqual([...left].sort());
            }
          }
        }
        expect(result.text).toBe("ask_city=city|ask_date=date|ask_seat=seat"); // results in call order
        expect(s.bodies).toHaveLength(2); // the model was called once after the halt, with every result
        expect(k.runs).toEqual({ ask_city: 1, ask_date: 1, ask_seat: 1 });
        expect((await client.inspect(halted.runId!))?.status ?? "done").toBe("done");
      }
    });

    it("a double-submitted card (the same partial answer twice) returns the run as it left it: nothing runs again", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) =>
        seen ? { text: seen } : { calls: [{ name: "ask_city" }, { name: "ask_date" }] },
      );
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const a = answerOutput("q-date", "Friday");
      const [one, two] = await Promise.allSettled([
        client.resume(halted.runId!, a, { toolkit: k.tools }),
        client.resume(halted.runId!, a, { toolkit: k.tools }),
      ]);
      const ok = [one, two].filter((r) => r.status === "fulfilled");
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of [one, two]) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(RunConflictError);
      const again = await client.resume(halted.runId!, a, { toolkit: k.tools });
      expect(asPending(again).requests.map((r) => r.id)).toEqual(["q-city"]);
      expect(k.runs.ask_date).toBe(1);
    });

    it("an earlier partial answer sent again after a walk-away and a retry still gets the kept outcome", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => {
        if (!seen) return { calls: [{ name: "ask_city" }, { name: "ask_date" }] };
        if (!seen.includes("book")) return { calls: [{ name: "book" }] };
        return { text: `end ${seen}` };
      });
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const date = answerOutput("q-date", "Friday");
      const city = answerOutput("q-city", "Oslo");
      await client.resume(halted.runId!, date, { toolkit: k.tools }); // one card answered
      for await (const event of client.resumeStream(halted.runId!, city, { toolkit: k.tools })) {
        if (event.type === "tool_result" && event.name === "book") break; // the tab closed after a later turn's checkpoint
      }
      const done = await client.resume(halted.runId!, city, { toolkit: k.tools });
      expect(done.status).toBe("done");
      const again = await client.resume(halted.runId!, date, { toolkit: k.tools }); // the first card, submitted twice
      expect(again.text).toBe(done.text);
      expect([k.runs.ask_city, k.runs.ask_date, k.runs.book]).toEqual([1, 1, 1]);
    });

    it("a run claimed and given back again and again keeps one copy of its calls in the stored text", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: `end ${seen}` } : { calls: [{ name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const sizes: number[] = [];
      for (let i = 0; i < 4; i++) {
        for await (const event of client.resumeStream(halted.runId!, answerOutput("q-city", "Oslo"), {
          toolkit: k.tools,
        })) {
          void event;
          break; // the tab closed at the first event, again
        }
        const stored = (await storage.get(`run:${halted.runId}`))!;
        sizes.push(stored.split('"calls":').length - 1);
      }
      expect(sizes.every((n) => n <= 2)).toBe(true); // the record's own, and at most one edit appended
      expect((await client.resume(halted.runId!, answerOutput("q-city", "Oslo"), { toolkit: k.tools })).status).toBe(
        "done",
      );
      expect(k.runs.ask_city).toBe(1);
    });

    it("inspect tells a reloaded page where the run stands: pending with its requests, then done; unknown runs are undefined", async () => {
      const storage = await natural.make();
      const k = kit();
      const s = model(style, (seen) => (seen ? { text: seen } : { calls: [{ name: "charge" }, { name: "ask_city" }] }));
      const client = createClient({ ...base, style, fetch: s.fetch, storage });
      const halted = asPending(await client.run("x", { toolkit: k.tools }));
      const seen = await client.inspect(halted.runId!);
      expect(seen).toEqual({ status: "pending", requests: [halted.pending] });
      expect(JSON.stringify(seen)).not.toContain("sk-secret"); // nothing but the requests
      await client.resume(halted.runId!, answerOutput("q-city", "Kyoto"), { toolkit: k.tools });
      expect((await client.inspect(halted.runId!))?.status).toBe("done");
      expect(await client.inspect("run-unknown")).toBeUndefined();
    });
  });
}
