// workerd only (docs/guide/reliability.md, "Races: exactly once"): 100 concurrent resumes of one suspension on the Durable Object adapter, in both
// its forms, and the documented best-effort behaviour of Workers KV (no conditional write) shown as it is.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { durableObjectStorage, kvStorage, type KVNamespaceLike } from "toolnexus";
import { barrier, raceResumes } from "../support/faulty-storage";

const stubFor = (name: string) => env.RUN_STORE.get(env.RUN_STORE.idFromName(name));

/** 100 resumes of one suspension ran the tool once: one got through, the other 99 were RunConflictErrors. */
function expectOnce(outcome: Awaited<ReturnType<typeof raceResumes>>) {
  expect({
    executions: outcome.executions,
    fulfilled: outcome.fulfilled,
    conflicts: outcome.rejected.filter((c) => c === "run_conflict").length,
  }).toEqual({ executions: 1, fulfilled: 1, conflicts: 99 });
}

describe("exactly once on Durable Objects", () => {
  it("durableObjectStorage({ namespace }) from 100 clients: the tool runs once, 99 RunConflictErrors", async () => {
    const name = `race-${crypto.randomUUID()}`;
    const outcome = await raceResumes(durableObjectStorage({ namespace: env.RUN_STORE, name }), 100, () =>
      durableObjectStorage({ namespace: env.RUN_STORE, name }),
    );
    expectOnce(outcome);
    expect(JSON.parse(outcome.stored!)).toMatchObject({ status: "done" });
  }, 60_000);

  it("durableObjectStorage({ storage }) inside one object, 100 resumes at once: the tool runs once", async () => {
    const outcome = await runInDurableObject(stubFor(`inside-${crypto.randomUUID()}`), (_object, state) =>
      raceResumes(durableObjectStorage({ storage: state.storage, prefix: "race/" }), 100),
    );
    expectOnce(outcome);
  }, 60_000);

  it("two durableObjectStorage({ storage }) adapters over one object's storage share one queue: 100 resumes through both, the tool runs once", async () => {
    const outcome = await runInDurableObject(stubFor(`twice-${crypto.randomUUID()}`), (_object, state) => {
      const adapters = [
        durableObjectStorage({ storage: state.storage }),
        durableObjectStorage({ storage: state.storage }),
      ];
      let i = 0;
      return raceResumes(adapters[0]!, 100, () => adapters[i++ % 2]!);
    });
    expectOnce(outcome);
  }, 60_000);
});

describe("best effort on Workers KV (documented: not atomic)", () => {
  it("two resumes that both read the record before either writes it both run the tool", async () => {
    const prefix = `kv-race-${crypto.randomUUID()}/`;
    const gate = barrier(2);
    let gated = 0;
    // the real KV namespace, with its first four reads (each resume's load and claim) lined up in pairs
    const binding: KVNamespaceLike = {
      get: async (key) => {
        if (gated++ < 4) await gate();
        return env.RUNS.get(key);
      },
      put: (key, value, opts) => env.RUNS.put(key, value, opts),
      delete: (key) => env.RUNS.delete(key),
    };
    const outcome = await raceResumes(kvStorage({ binding: env.RUNS, prefix }), 2, () =>
      kvStorage({ binding, prefix }),
    );
    expect(outcome.executions).toBe(2);
    expect(outcome.fulfilled).toBeGreaterThanOrEqual(1);
    expect(outcome.rejected.every((c) => c === "storage" || c === "run_conflict")).toBe(true);
  });

  it("100 concurrent resumes never crash: every one succeeds or gets a typed error, and the tool ran at least once", async () => {
    const prefix = `kv-many-${crypto.randomUUID()}/`;
    const outcome = await raceResumes(kvStorage({ binding: env.RUNS, prefix }), 100);
    expect(outcome.executions).toBeGreaterThanOrEqual(1);
    expect(outcome.fulfilled).toBeGreaterThanOrEqual(1);
    expect(outcome.rejected.filter((c) => c !== "storage" && c !== "run_conflict")).toEqual([]);
    expect(JSON.parse(outcome.stored!)).toMatchObject({ v: 1, status: expect.any(String) }); // one whole record
  }, 60_000);
});
