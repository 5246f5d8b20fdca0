// Deno only (docs/guide/reliability.md, "Races: exactly once"): 100 concurrent resumes of one suspension through 100 separate denoKvStorage adapters
// over one Deno KV database — exactly one tool execution. Also checks fast-check resolves from node_modules.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { denoKvStorage } from "toolnexus";
import { raceResumes } from "../support/faulty-storage.ts";

const kv = await Deno.openKv(":memory:");

describe("exactly once on Deno KV", () => {
  it("100 resumes through 100 adapters: the tool runs once, 99 RunConflictErrors, the record is done", async () => {
    const prefix = ["race", crypto.randomUUID()];
    const outcome = await raceResumes(denoKvStorage({ kv, prefix }), 100, () => denoKvStorage({ kv, prefix }));
    expect({ executions: outcome.executions, fulfilled: outcome.fulfilled }).toEqual({ executions: 1, fulfilled: 1 });
    expect(outcome.rejected.filter((c) => c === "run_conflict")).toHaveLength(99);
    expect(JSON.parse(outcome.stored!)).toMatchObject({ status: "done" });
  });

  it("fast-check runs here (bare import resolved from node_modules)", () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.string(), (s) => {
        runs++;
        return typeof s === "string";
      }),
      { numRuns: 25 },
    );
    expect(runs).toBe(25);
  });
});
