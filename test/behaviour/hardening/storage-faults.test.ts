// Storage faults injected with faultyStorage (docs/guide/reliability.md, "Storage faults"): a write failure while
// halting, a read failure on resume, a delete failure after completion, a claim lost to a racer mid-resume, a
// claim whose owner died; damaged
// records; and 100 concurrent resumes on this runtime's atomic adapters. Nothing is lost, nothing runs twice.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  RunConflictError,
  RunStateError,
  StorageError,
  type RunStorage,
} from "toolnexus";
import { crashingStorage } from "toolnexus/testing";
import { barrier, countingTool, faultyStorage, raceResumes } from "../../support/faulty-storage";
import { naturalStorage } from "../../support/natural-storage";
import { MODES, resumeIn, runIn } from "../../support/drive";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";

const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-test" } as const;
const script = () =>
  scripted("openai", [{ calls: [{ name: "book" }, { name: "rent" }] }, (b) => ({ text: toolResultsIn(b).join("|") })]);
/** A model that answers from its transcript, however often it is called (a takeover calls it again). */
const byTranscript = () =>
  scripted(
    "openai",
    Array.from({ length: 5 }, () => (b: Record<string, any>) => {
      const seen = toolResultsIn(b);
      return seen.length ? { text: seen.join("|") } : { calls: [{ name: "book" }] };
    }),
  );
const single = () => scripted("openai", [{ calls: [{ name: "book" }] }, (b) => ({ text: toolResultsIn(b).join("|") })]);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

describe("storage faults", () => {
  for (const mode of MODES) {
    it(`a write failure while halting is a StorageError carrying the record, which resumes from anywhere (${mode})`, async () => {
      const storage = faultyStorage(memoryStorage());
      const { tool, executions } = countingTool();
      const s = single();
      storage.fail("set", new Error("disk full"));
      const error = await rejection(
        runIn(createClient({ ...base, fetch: s.fetch, storage }), mode, "x", { toolkit: [tool] }),
      );
      expect(error).toBeInstanceOf(StorageError);
      const e = error as StorageError;
      expect({ operation: e.operation, key: e.key.startsWith("run:") }).toEqual({ operation: "set", key: true });
      expect(e.message).toContain("error.record");
      const record = JSON.parse(e.record!) as { runId: string; status: string };
      expect(record.status).toBe("suspended");
      expect(await storage.inner.get(e.key)).toBeUndefined();
      const elsewhere = memoryStorage();
      await elsewhere.set(e.key, e.record!);
      const { result } = await resumeIn(
        createClient({ ...base, fetch: s.fetch, storage: elsewhere }),
        mode,
        record.runId,
        answerOutput("q-book", "Ana"),
        { toolkit: [tool] },
      );
      expect(result.text).toBe("booked for Ana");
      expect(executions()).toBe(1);
    });
  }

  it("a read failure on resume is a StorageError; the record is intact and resumes later", async () => {
    const storage = faultyStorage(memoryStorage());
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: single().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    const before = await storage.inner.get(`run:${halted.runId}`);
    storage.fail("get", new Error("network partition"));
    const error = await rejection(client.resume(halted.runId, answerOutput("q-book", "Bo"), { toolkit: [tool] }));
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).operation).toBe("get");
    expect(await storage.inner.get(`run:${halted.runId}`)).toBe(before);
    expect(executions()).toBe(0);
    expect((await client.resume(halted.runId, answerOutput("q-book", "Bo"), { toolkit: [tool] })).text).toBe(
      "booked for Bo",
    );
  });

  it("an adapter that throws instead of rejecting (not async) is a StorageError too: resume, inspect, ask and a halt", async () => {
    const inner = memoryStorage();
    let failing: "get" | "set" | undefined;
    const storage: RunStorage = {
      capabilities: inner.capabilities,
      get: (key) => {
        if (failing === "get") throw new Error("sync get");
        return inner.get(key);
      },
      set: (key, value, opts) => {
        if (failing === "set") throw new Error("sync set");
        return inner.set(key, value, opts);
      },
      delete: (key) => inner.delete(key),
      compareAndSet: (key, expected, value, opts) => inner.compareAndSet!(key, expected, value, opts),
    };
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: byTranscript().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    failing = "get";
    const answer = answerOutput("q-book", "Bo");
    for (const call of [
      () => client.resume(halted.runId, answer, { toolkit: [tool] }),
      () => client.inspect(halted.runId),
      () => client.ask("x", { id: "c1", toolkit: [tool] }),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).operation).toBe("get");
    }
    failing = "set";
    const halting = await rejection(client.run("again", { toolkit: [tool] }));
    expect(halting).toBeInstanceOf(StorageError);
    expect((halting as StorageError).record).toContain('"runId"');
    failing = undefined;
    expect(executions()).toBe(0);
    expect((await client.resume(halted.runId, answer, { toolkit: [tool] })).text).toBe("booked for Bo");
  });

  it("a failing compare-and-set while claiming is a StorageError; nothing ran and the run stays resumable", async () => {
    const storage = faultyStorage(memoryStorage());
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: single().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    storage.fail("compareAndSet", new Error("timeout"));
    expect(
      await rejection(client.resume(halted.runId, answerOutput("q-book", "Cy"), { toolkit: [tool] })),
    ).toBeInstanceOf(StorageError);
    expect(executions()).toBe(0);
    expect((await client.resume(halted.runId, answerOutput("q-book", "Cy"), { toolkit: [tool] })).text).toBe(
      "booked for Cy",
    );
  });

  it("a claim that lands and then throws is undone: the same answer, retried at once within the lease, runs the tool once", async () => {
    const inner = memoryStorage();
    const { tool, executions } = countingTool();
    const fetch = single().fetch;
    const halted = asPending(await createClient({ ...base, fetch, storage: inner }).run("x", { toolkit: [tool] }));
    const stored = await inner.get(`run:${halted.runId}`);
    // the resume's second operation (its claim) reaches the store, then its reply is lost
    const { storage } = crashingStorage(inner, 2, "lands-then-throws");
    const failed = createClient({ ...base, fetch, storage, claimLeaseMs: 60_000 });
    expect(
      await rejection(failed.resume(halted.runId, answerOutput("q-book", "Ed"), { toolkit: [tool] })),
    ).toBeInstanceOf(StorageError);
    expect(await inner.get(`run:${halted.runId}`)).toBe(stored); // consumed nothing
    const retry = createClient({ ...base, fetch, storage: inner, claimLeaseMs: 60_000 });
    expect((await retry.resume(halted.runId, answerOutput("q-book", "Ed"), { toolkit: [tool] })).text).toBe(
      "booked for Ed",
    );
    expect(executions()).toBe(1);
  });

  it("a checkpoint that lands and then throws is given back at once: the same answer, retried within the lease, keeps the tool's result", async () => {
    const inner = memoryStorage();
    const { tool, executions } = countingTool();
    const fetch = single().fetch;
    const halted = asPending(await createClient({ ...base, fetch, storage: inner }).run("x", { toolkit: [tool] }));
    // the resume's third operation (the checkpoint of the answered call) reaches the store, then its reply is lost
    const { storage } = crashingStorage(inner, 3, "lands-then-throws");
    const failed = createClient({ ...base, fetch, storage, claimLeaseMs: 60_000 });
    expect(
      await rejection(failed.resume(halted.runId, answerOutput("q-book", "Flo"), { toolkit: [tool] })),
    ).toBeInstanceOf(StorageError);
    expect(JSON.parse((await inner.get(`run:${halted.runId}`))!).status).toBe("ready");
    const retry = createClient({ ...base, fetch, storage: inner, claimLeaseMs: 60_000 });
    const done = await retry.resume(halted.runId, answerOutput("q-book", "Flo"), { toolkit: [tool] });
    expect(done.text).toBe("booked for Flo");
    expect(done.toolCalls.map((c) => c.output)).toEqual(["booked for Flo"]);
    expect(executions()).toBe(1);
  });

  it("a partial answer whose halt write fails: the same answer, retried at once, halts again on the other request", async () => {
    const inner = memoryStorage();
    const runs = { city: 0, date: 0 };
    const asking = (name: "city" | "date") =>
      defineTool({
        name: `ask_${name}`,
        description: name,
        execute: async (_a, ctx) => {
          if (!ctx.answer) return pending({ kind: "input", id: `q-${name}`, prompt: `Which ${name}?` });
          runs[name]++;
          return `${name}=${String(ctx.answer.data?.output)}`;
        },
      });
    const tools = [asking("city"), asking("date")];
    const s = scripted("openai", [
      { calls: [{ name: "ask_city" }, { name: "ask_date" }] },
      (b) => ({ text: toolResultsIn(b).join("|") }),
    ]);
    const client = (storage: RunStorage) => createClient({ ...base, fetch: s.fetch, storage, claimLeaseMs: 60_000 });
    const halted = asPending(await client(inner).run("x", { toolkit: tools }));
    const date = answerOutput("q-date", "Friday");
    // the resume's third operation — writing the run halted again on q-city — throws before it lands
    const { storage } = crashingStorage(inner, 3, "throws");
    expect(await rejection(client(storage).resume(halted.runId, date, { toolkit: tools }))).toBeInstanceOf(
      StorageError,
    );
    const again = asPending(await client(inner).resume(halted.runId, date, { toolkit: tools }));
    expect(again.requests.map((r) => r.id)).toEqual(["q-city"]);
    const done = await client(inner).resume(halted.runId, answerOutput("q-city", "Oslo"), { toolkit: tools });
    expect(done.status).toBe("done");
    expect(done.text).toBe("city=Oslo|interrupted: ask_date did not finish"); // its result was lost, never re-run
    expect(runs).toEqual({ city: 1, date: 1 });
  });

  it("a delete failure after completion still returns the result; a different answer later conflicts and runs nothing", async () => {
    const storage = faultyStorage(memoryStorage(), { capabilities: { ttl: false } }); // a finished run is deleted
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: single().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    storage.fail("delete", new Error("read-only replica"));
    expect((await client.resume(halted.runId, answerOutput("q-book", "Di"), { toolkit: [tool] })).text).toBe(
      "booked for Di",
    );
    expect(storage.log.filter((l) => l.op === "delete")).toHaveLength(1);
    expect(
      await rejection(client.resume(halted.runId, answerOutput("q-book", "Eve"), { toolkit: [tool] })),
    ).toBeInstanceOf(RunConflictError);
    expect(executions()).toBe(1);
  });

  it("a failed write of the finished outcome is a StorageError whose record holds the result", async () => {
    const storage = faultyStorage(memoryStorage());
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: single().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    storage.beforeCompareAndSet = (_key, _expected, value) => {
      if (value.startsWith('{"v":1,') && value.includes('"status":"done"'))
        storage.fail("compareAndSet", new Error("quota"));
    };
    const error = (await rejection(
      client.resume(halted.runId, answerOutput("q-book", "Fay"), { toolkit: [tool] }),
    )) as StorageError;
    expect(error).toBeInstanceOf(StorageError);
    expect(JSON.parse(error.record!)).toMatchObject({
      status: "done",
      result: { status: "done", text: "booked for Fay" },
    });
    expect(executions()).toBe(1);
  });

  it("a write failure when a resumed run suspends again carries the record; writing it back resumes the rest without re-running", async () => {
    const storage = faultyStorage(memoryStorage());
    const book = countingTool("book");
    const rent = countingTool("rent");
    const toolkit = [book.tool, rent.tool];
    const s = script(); // two suspended calls in one turn
    const client = createClient({ ...base, fetch: s.fetch, storage });
    const halted = asPending(await client.run("x", { toolkit }));
    const key = `run:${halted.runId}`;
    storage.beforeCompareAndSet = (_k, expected) => {
      if (expected?.includes('"status":"claimed"')) storage.fail("compareAndSet", new Error("flaky disk"));
    };
    const error = (await rejection(
      client.resume(halted.runId, answerOutput("q-book", "Gus"), { toolkit }),
    )) as StorageError;
    expect(error).toBeInstanceOf(StorageError);
    expect(JSON.parse(error.record!)).toMatchObject({
      status: "suspended",
      calls: [{ result: { output: "booked for Gus" } }, { request: { id: "q-rent" } }],
    });
    storage.beforeCompareAndSet = undefined;
    // the host saves what the error carried, over the claim this resume left behind
    await storage.inner.set(key, error.record!);
    const done = await client.resume(halted.runId, answerOutput("q-rent", "Hal"), { toolkit });
    expect(done.text).toBe("booked for Gus|booked for Hal");
    expect([book.executions(), rent.executions()]).toEqual([1, 1]);
  });

  it("a claim lost to a racer between get and compare-and-set is a RunConflictError and no tool runs", async () => {
    const storage = faultyStorage(memoryStorage());
    const { tool, executions } = countingTool();
    const client = createClient({ ...base, fetch: single().fetch, storage });
    const halted = asPending(await client.run("x", { toolkit: [tool] }));
    const key = `run:${halted.runId}`;
    let racer = "";
    storage.beforeCompareAndSet = async (k, expected) => {
      storage.beforeCompareAndSet = undefined;
      racer = expected!.replace('"status":"suspended"', '"status":"claimed"');
      await storage.inner.set(k, racer); // another isolate claims it first
    };
    const error = await rejection(client.resume(halted.runId, answerOutput("q-book", "Ivy"), { toolkit: [tool] }));
    expect(error).toBeInstanceOf(RunConflictError);
    expect(executions()).toBe(0);
    expect(await storage.inner.get(key)).toBe(racer);
  });

  it("a claim whose owner died refuses resumes while its lease holds; after it, the same answer takes over and nothing runs twice", async () => {
    const storage = memoryStorage();
    const { tool, executions } = countingTool();
    const halted = asPending(
      await createClient({ ...base, fetch: byTranscript().fetch, storage }).run("x", { toolkit: [tool] }),
    );
    const key = `run:${halted.runId}`;
    // a process that dies right after its claim reached the store: every later operation of it hangs
    let claimed = false;
    const dying: RunStorage = {
      capabilities: storage.capabilities,
      get: (k) => (claimed ? new Promise(() => {}) : storage.get(k)),
      set: () => new Promise(() => {}),
      delete: () => new Promise(() => {}),
      compareAndSet: async (k, expected, value, opts) => {
        if (claimed) return new Promise(() => {});
        claimed = await storage.compareAndSet!(k, expected, value, opts);
        return new Promise(() => {});
      },
    };
    const lease = { claimLeaseMs: 200 }; // outlasts a loaded machine's pause before the check below
    void createClient({ ...base, ...lease, fetch: byTranscript().fetch, storage: dying })
      .resume(halted.runId!, answerOutput("q-book", "Jo"), { toolkit: [tool] })
      .catch(() => {});
    while (!claimed) await new Promise((r) => setTimeout(r, 1));
    expect(JSON.parse((await storage.get(key))!)).toMatchObject({ status: "claimed", lease: {} });
    const client = createClient({ ...base, ...lease, fetch: byTranscript().fetch, storage });
    expect(
      await rejection(client.resume(halted.runId, answerOutput("q-book", "Jo"), { toolkit: [tool] })),
    ).toBeInstanceOf(RunConflictError);
    await new Promise((r) => setTimeout(r, 300)); // the dead owner's lease passes
    expect(
      await rejection(client.resume(halted.runId!, answerOutput("q-book", "another"), { toolkit: [tool] })),
    ).toBeInstanceOf(RunConflictError); // only the answer the claim applied may take it over
    const done = await client.resume(halted.runId!, answerOutput("q-book", "Jo"), { toolkit: [tool] });
    // the dead owner had marked the call as started: its outcome is unknown, so it is reported, not re-run
    expect(done.text).toBe("interrupted: book did not finish");
    expect(executions()).toBe(0);
    expect(JSON.parse((await storage.get(key))!).status).toBe("done");
  });

  it("without compareAndSet the claim is a best-effort get-then-set: two resumes that both read before either writes both run", async () => {
    const storage = faultyStorage(memoryStorage(), { withoutCompareAndSet: true, capabilities: { atomic: false } });
    expect(storage.compareAndSet).toBeUndefined();
    const { tool, executions } = countingTool();
    const s = scripted("openai", [{ calls: [{ name: "book" }] }, { text: "one" }, { text: "two" }]);
    const halted = asPending(await createClient({ ...base, fetch: s.fetch, storage }).run("x", { toolkit: [tool] }));
    storage.beforeGet = barrier(2); // each get waits for the other resume's matching get
    const both = await Promise.all(
      ["Ann", "Bea"].map((who) =>
        createClient({ ...base, fetch: s.fetch, storage }).resume(halted.runId, answerOutput("q-book", who), {
          toolkit: [tool],
        }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual(["done", "done"]);
    expect(executions()).toBe(2); // what "best effort" means — use an atomic adapter for exactly once
  });
});

describe("damaged records", () => {
  async function stored(
    calls: 1 | 2,
    finish = false,
  ): Promise<{ storage: RunStorage; key: string; runId: string; raw: string }> {
    const storage = memoryStorage();
    const client = createClient({ ...base, fetch: (calls === 1 ? single() : script()).fetch, storage });
    const toolkit = [countingTool("book").tool, countingTool("rent").tool];
    const halted = asPending(await client.run("x", { toolkit }));
    if (finish) await client.resume(halted.runId, answerOutput("q-book", "K"), { toolkit });
    const key = `run:${halted.runId}`;
    return { storage, key, runId: halted.runId, raw: (await storage.get(key))! };
  }

  it("a halted call that lost both its result and its request is a RunStateError, not a TypeError", async () => {
    const { storage, key, runId, raw } = await stored(2);
    const record = JSON.parse(raw);
    delete record.calls[1].request; // neither finished nor waiting: the turn can never be balanced
    await storage.set(key, JSON.stringify(record));
    const book = countingTool("book");
    const error = await rejection(
      createClient({ ...base, fetch: single().fetch, storage }).resume(runId, answerOutput("q-book", "L"), {
        toolkit: [book.tool, countingTool("rent").tool],
      }),
    );
    expect(error instanceof RunStateError ? "RunStateError" : String(error)).toBe("RunStateError");
    expect(book.executions()).toBe(0);
  });

  it("a finished run whose stored outcome is damaged is a RunStateError, never a malformed result or a TypeError", async () => {
    for (const damage of [{}, { status: "suspended" }, { status: "done", usage: null }]) {
      const { storage, key, runId, raw } = await stored(1, true);
      const record = JSON.parse(raw);
      record.result = { ...record.result, ...damage };
      if (Object.keys(damage).length === 0) record.result = {};
      await storage.set(key, JSON.stringify(record));
      const { tool } = countingTool();
      const error = await rejection(
        createClient({ ...base, fetch: single().fetch, storage }).resume(runId, answerOutput("q-book", "K"), {
          toolkit: [tool],
        }),
      );
      expect({ damage, error: error instanceof RunStateError ? "RunStateError" : String(error) }).toEqual({
        damage,
        error: "RunStateError",
      });
    }
  });
});

const natural = naturalStorage();

describe(`100 concurrent resumes of one suspension (${natural.name} and memory)`, () => {
  it(`on this runtime's atomic adapter (${natural.name}): the tool runs once, the rest are typed conflicts`, async () => {
    const outcome = await raceResumes(await natural.make(), 100);
    expect({ executions: outcome.executions, fulfilled: outcome.fulfilled }).toEqual({ executions: 1, fulfilled: 1 });
    expect(outcome.rejected).toHaveLength(99);
    expect(outcome.rejected.every((code) => code === "run_conflict")).toBe(true);
    expect(JSON.parse(outcome.stored!)).toMatchObject({ status: "done", result: { text: "done" } });
  }, 60_000);

  it("on memoryStorage shared by 100 clients: the tool runs once", async () => {
    const outcome = await raceResumes(memoryStorage(), 100);
    expect({
      executions: outcome.executions,
      fulfilled: outcome.fulfilled,
      conflicts: outcome.rejected.filter((c) => c === "run_conflict").length,
    }).toEqual({ executions: 1, fulfilled: 1, conflicts: 99 });
  });
});
