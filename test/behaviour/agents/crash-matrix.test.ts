// The crash matrix over a nested resume: the answer to a three-level tree's question is resumed by a process
// that dies at its k-th storage operation (throws, hangs, lands and loses the reply) or whose k-th operation
// fails once, for every k; then fresh clients on the same storage retry the same answer. Whatever k was, the
// tree finishes, the leaf's booking ran at most once (a booking whose outcome was lost is reported to the
// model as interrupted, never run again) and nothing is left claimed. And once the booker answered, the planner
// delegates to a child that finishes without halting (explore, whose `lookup` is counted): whatever k was, that
// child's tool and model calls ran at most once — its stored result is returned on a retry, or, when the crash
// lost it, the planner's model is told the child was interrupted; it is never run again.
import {
  answerOutput,
  defineTool,
  memoryStorage,
  type GenerateRequest,
  type PendingResult,
  type RunResult,
  type RunStorage,
} from "toolnexus";
import { crashingStorage, type Crash, type Fault } from "toolnexus/testing";
import { describe, expect, it } from "vitest";
import { clientOn, scripts, world } from "./support";

const LEASE = 25;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type World = ReturnType<typeof world> & { script: typeof scripts; looked: string[] };

/** The default tree, or — `explore` — one whose planner, once its booker answered, delegates to explore. */
function worldOf(explore: boolean): World {
  const looked: string[] = [];
  if (!explore) return { ...world(), script: scripts, looked };
  const lookup = defineTool({
    name: "lookup",
    description: "looks a place up",
    execute: () => (looked.push("ran"), "found Dakshin"),
  });
  const w = world({ explore: { model: "m-explore", tools: [lookup] } });
  const script: typeof scripts = {
    ...scripts,
    "m-planner": (_req: GenerateRequest, tools: string[]) => {
      if (tools.length === 0)
        return { toolCalls: [{ id: "p1", name: "task", arguments: { agent: "booker", prompt: "book Friday" } }] };
      if (tools.length === 1)
        return { toolCalls: [{ id: "p2", name: "task", arguments: { agent: "explore", prompt: "find a place" } }] };
      return { content: `planned: ${tools.join(" + ")}` };
    },
    "m-explore": (_req: GenerateRequest, tools: string[]) =>
      tools.length === 0
        ? { toolCalls: [{ id: "e1", name: "lookup", arguments: {} }] }
        : { content: `explored: ${tools.join(" + ")}` },
  };
  return { ...w, script, looked };
}

/** The same answer from a fresh client until the tree finishes (a failed try waits out the lease it may have left). */
async function finish(w: World, storage: RunStorage, runId: string, id: string): Promise<RunResult> {
  let failure: unknown;
  for (let tries = 0; tries < 8; tries++) {
    try {
      const client = clientOn(storage, w.counts, w.script);
      return await w.coordinator.resume(runId, answerOutput(id, "yes"), { client });
    } catch (error) {
      failure = error;
      await wait(LEASE * 2);
    }
  }
  throw failure;
}

/** Every run of the tree, from the root down through the stored trees. */
async function runsOf(storage: RunStorage, root: string): Promise<string[]> {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const raw = await storage.get(`agents:${out[i]}`);
    if (raw) for (const c of Object.values(JSON.parse(raw).calls) as { run: string }[]) out.push(c.run);
  }
  return out;
}

/** One crash or fault at the k-th operation; false once k is past the resume's last operation. */
async function at(k: number, how: Crash | Fault, explore = false): Promise<boolean> {
  const w = worldOf(explore);
  const inner = memoryStorage();
  const p = (await w.coordinator.run("dinner", { client: clientOn(inner, w.counts, w.script) })) as PendingResult;
  const { storage, crashed } = crashingStorage(inner, k, how);
  let over = false;
  let settled: RunResult | undefined;
  const client = clientOn(storage, w.counts, w.script);
  void w.coordinator.resume(p.runId, answerOutput(p.pending.id, "yes"), { client }).then(
    (r) => ((settled = r), (over = true)),
    () => (over = true),
  );
  while (!over && !(how === "hang" && crashed())) await wait(1);
  if (!crashed()) {
    expect(settled?.status).toBe("done");
    return false;
  }
  await wait(LEASE * 2);
  const result = settled?.status === "done" && how !== "throws" && how !== "lands-then-throws" ? settled : undefined;
  const done = result ?? (await finish(w, inner, p.runId, p.pending.id));
  expect(done.status, `k=${k} ${how}`).toBe("done");
  expect(w.counts.booked.length, `k=${k} ${how}: bookings`).toBeLessThanOrEqual(1);
  // a booking that ran but whose outcome the crash lost is reported as interrupted too — never run again
  if (w.counts.booked.length === 0)
    expect(done.text, `k=${k} ${how}`).toContain("interrupted: book_table did not finish");
  const booked = "booker: (table booked for friday|interrupted: book_table did not finish)";
  if (!explore) expect(done.text, `k=${k} ${how}`).toMatch(new RegExp(`^coord: planned: ${booked}$`));
  else {
    // the child that finished without halting: its tool and its two model calls at most once; its result as it
    // was stored, or — the crash lost it, or the child never started — interrupted
    expect(w.looked.length, `k=${k} ${how}: lookups`).toBeLessThanOrEqual(1);
    expect(w.counts.calls["m-explore"] ?? 0, `k=${k} ${how}: explore's model calls`).toBeLessThanOrEqual(2);
    const lost = "\\[interrupted\\] explore did not finish";
    const explored = w.looked.length ? `(explored: found Dakshin|${lost})` : lost;
    expect(done.text, `k=${k} ${how}`).toMatch(new RegExp(`^coord: planned: ${booked} \\+ ${explored}$`));
  }
  for (const run of await runsOf(inner, p.runId)) {
    const raw = await inner.get(`run:${run}`);
    if (raw) expect(JSON.parse(raw).status, `k=${k} ${how}: run ${run}`).toBe("done");
  }
  return true;
}

describe("the crash matrix over a nested resume (three levels)", () => {
  for (const how of ["throw", "hang", "lost", "throws", "lands-then-throws"] as const) {
    it(`the k-th storage operation ${how}, for every k: fresh clients finish the tree, the booking at most once`, async () => {
      let points = 0;
      while (await at(points + 1, how)) points++;
      expect(points).toBeGreaterThan(6);
    }, 120_000);
    it(`the k-th storage operation ${how}, then a child that finishes without halting: it runs at most once`, async () => {
      let points = 0;
      while (await at(points + 1, how, true)) points++;
      expect(points).toBeGreaterThan(10);
    }, 120_000);
  }
});

describe("a child claimed by a resume that died, on the client's clock", () => {
  it("the parent's task call waits out the child's lease by the client's clock, then finishes the tree", async () => {
    // a virtual clock a day ahead of the system's: a lease read against the system clock would last a day
    const clock = { now: () => Date.now() + 86_400_000 };
    const w = worldOf(false);
    const inner = memoryStorage();
    const on = (storage: RunStorage) => clientOn(storage, w.counts, w.script, { clock });
    const p = (await w.coordinator.run("dinner", { client: on(inner) })) as PendingResult;
    const runs = await runsOf(inner, p.runId);
    const booker = runs.at(-1)!;
    const asked = (await on(inner).inspect(booker))!.requests[0]!;
    // a process claims the booker's run with the same answer and dies right after its claim landed
    const { storage, crashed } = crashingStorage(inner, 2, "lost");
    await w.booker.resume(booker, answerOutput(asked.id, "yes"), { client: on(storage) }).catch(() => undefined);
    expect(crashed()).toBe(true);
    expect(JSON.parse((await inner.get(`run:${booker}`))!).status).toBe("claimed");
    const done = await w.coordinator.resume(p.runId, answerOutput(p.pending.id, "yes"), { client: on(inner) });
    // the dead claim had marked the booking started: its outcome unknown, it is reported, never run
    expect(done.text).toBe("coord: planned: booker: interrupted: book_table did not finish");
    expect(w.counts.booked).toEqual([]);
  }, 10_000);
});
