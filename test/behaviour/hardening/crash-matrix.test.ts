// The exactly-once invariant under crashes, proven at every crash point: a resume is stopped at its k-th
// storage operation (the operation throws, or never resolves — the process died) for every k, or its
// reader walks away after its k-th event for every k; then a fresh client resumes with the same answer.
// Whatever k was, the run finishes (or returns its kept outcome), every tool ran at most once for its
// answer, a call whose outcome was lost was reported as interrupted (never re-run), and nothing is left
// claimed once the lease has passed. Runs on this runtime's atomic adapter (naturalStorage).
import {
  answerOutput,
  createClient,
  defineTool,
  pending,
  type Answer,
  type RunResult,
  type RunStorage,
  type StreamEvent,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { asPending } from "../support/results";
import { naturalStorage } from "../support/natural-storage";
import { scripted, toolResultsIn, type ScriptTurn } from "../support/scripted";

const LEASE_MS = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const natural = naturalStorage();

/** Side-effecting tools that count how often they really ran (with their answer, for the suspending ones). */
function kit() {
  const runs = { city: 0, charge: 0, book: 0, approve: 0 };
  type Counted = keyof typeof runs;
  // a tool that suspends with `request` until it is answered, then counts its run
  const asking = (
    name: string,
    counted: Counted,
    request: { kind: string; id: string; prompt: string },
    done: (output?: string) => string,
  ) =>
    defineTool({
      name,
      description: request.prompt,
      execute: async (_a, ctx) => {
        if (!ctx?.answer) return pending(request);
        runs[counted]++;
        return done(ctx.answer.data?.output);
      },
    });
  // a tool that runs at once and counts it
  const effect = (name: Counted, output: string) =>
    defineTool({
      name,
      description: output,
      execute: async () => {
        runs[name]++;
        return output;
      },
    });
  const tools = [
    asking("ask_city", "city", { kind: "input", id: "q-city", prompt: "Which city?" }, (output) => `city=${output}`),
    effect("charge", "charged"),
    effect("book", "booked"),
    asking("approve", "approve", { kind: "approval", id: "q-ok", prompt: "Approve?" }, () => "approved"),
  ];
  return { runs, tools };
}

/** The model, from what its transcript holds: ask + charge, then book, then approve, then the end. */
function model(style: "openai" | "anthropic") {
  const step = (b: Record<string, any>): ScriptTurn => {
    const seen = toolResultsIn(b).join("|");
    if (!seen) return { calls: [{ name: "ask_city" }, { name: "charge" }] };
    if (!/booked|interrupted: book/.test(seen)) return { calls: [{ name: "book" }] };
    if (!/approved|interrupted: approve|declined/.test(seen)) return { calls: [{ name: "approve" }] };
    return { text: `done: ${seen}` };
  };
  return scripted(
    style,
    Array.from({ length: 400 }, () => step),
  );
}

/** How the process dies at the k-th operation: before it reaches the store (it throws, or never settles), or after (its reply is lost). */
type Crash = "throw" | "hang" | "lost";

/** A storage whose k-th operation (1-based) crashes the "process"; every later operation fails the same way. */
function crashing(inner: RunStorage, k: number, how: Crash): { storage: RunStorage; crashed: () => boolean } {
  let n = 0;
  let dead = false;
  const op =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      if (!dead && ++n === k) {
        dead = true;
        // the write reached the store; the process died before it heard back
        if (how === "lost") return fn(...a).then(() => Promise.reject(new Error(`crash after storage op ${k}`)));
      }
      if (!dead) return fn(...a);
      return how === "hang" ? new Promise<R>(() => {}) : Promise.reject(new Error(`crash at storage op ${k}`));
    };
  const storage: RunStorage = {
    capabilities: inner.capabilities,
    get: op((key: string) => inner.get(key)),
    set: op((key: string, value: string, opts?: { ttlSeconds?: number }) => inner.set(key, value, opts)),
    delete: op((key: string) => inner.delete(key)),
    ...(inner.compareAndSet
      ? {
          compareAndSet: op(
            (key: string, expected: string | undefined, value: string, opts?: { ttlSeconds?: number }) =>
              inner.compareAndSet!(key, expected, value, opts),
          ),
        }
      : {}),
  };
  return { storage, crashed: () => dead };
}

const cityAnswer = (): Answer => answerOutput("q-city", "Oslo");

/** Resumes with the same answer until the run is done (answering the approval when it comes), like a page would. */
async function finish(storage: RunStorage, style: "openai" | "anthropic", runId: string, tools: unknown[]) {
  const client = createClient({
    baseUrl: "https://llm.test",
    style,
    model: "m",
    fetch: model(style).fetch,
    storage,
    claimLeaseMs: LEASE_MS,
  });
  let result: RunResult = await client.resume(runId, cityAnswer(), { toolkit: tools as never });
  if (result.status === "pending") {
    expect(result.pending?.id).toBe("q-ok");
    result = await client.resume(runId, answerOutput("q-ok", "yes"), { toolkit: tools as never });
  }
  return result;
}

async function invariant(storage: RunStorage, runId: string, result: RunResult, runs: ReturnType<typeof kit>["runs"]) {
  expect(result.status).toBe("done");
  expect(runs.charge).toBe(1); // ran in the first turn, before the answer: never again
  for (const [name, count] of [
    ["ask_city", runs.city],
    ["book", runs.book],
    ["approve", runs.approve],
  ] as const) {
    expect(count).toBeLessThanOrEqual(1);
    // a call that never finished was reported to the model as interrupted, not run again
    if (count === 0) expect(result.text).toContain(`interrupted: ${name} did not finish`);
  }
  const stored = await storage.get(`run:${runId}`);
  if (stored !== undefined) expect(JSON.parse(stored).status).toBe("done"); // nothing left claimed
}

for (const style of ["openai", "anthropic"] as const) {
  describe(`the crash matrix on ${natural.name} (${style})`, () => {
    for (const how of ["throw", "hang", "lost"] as Crash[]) {
      it(`a resume stopped at its k-th storage operation (${how}), for every k: a fresh client finishes it, no tool twice`, async () => {
        let points = 0;
        for (let k = 1; ; k++) {
          const inner = await natural.make();
          const { runs, tools } = kit();
          const halted = asPending(
            await createClient({
              baseUrl: "https://llm.test",
              style,
              model: "m",
              fetch: model(style).fetch,
              storage: inner,
            }).run("trip", { toolkit: tools }),
          );
          expect(halted.status).toBe("pending");
          const runId = halted.runId!;
          const { storage, crashed } = crashing(inner, k, how);
          const dying = createClient({
            baseUrl: "https://llm.test",
            style,
            model: "m",
            fetch: model(style).fetch,
            storage,
            claimLeaseMs: LEASE_MS,
          });
          let settled: RunResult | undefined;
          let over = false;
          void dying.resume(runId, cityAnswer(), { toolkit: tools }).then(
            (r) => ((settled = r), (over = true)),
            () => (over = true),
          );
          // until the resume is over or its process died (a crash that hangs never settles: it is left behind)
          while (!over && !(how === "hang" && crashed())) await sleep(1);
          if (!crashed()) {
            // k is past the last operation this resume makes: every crash point has been walked
            expect(settled?.status).toBe("pending");
            expect(points).toBeGreaterThan(3);
            break;
          }
          points++;
          await sleep(LEASE_MS * 2); // the lease of the dead owner passes
          const result = await finish(inner, style, runId, tools);
          await invariant(inner, runId, result, runs);
        }
      }, 120_000);
    }

    it("a reader that walks away after its k-th event, for every k: the same answer finishes the run, no tool twice", async () => {
      for (let k = 0; ; k++) {
        const storage = await natural.make();
        const { runs, tools } = kit();
        const client = createClient({
          baseUrl: "https://llm.test",
          style,
          model: "m",
          fetch: model(style).fetch,
          storage,
          claimLeaseMs: LEASE_MS,
        });
        const halted = asPending(await client.run("trip", { toolkit: tools }));
        const seen: StreamEvent[] = [];
        for await (const event of client.resumeStream(halted.runId!, cityAnswer(), { toolkit: tools })) {
          if (seen.length === k) break;
          seen.push(event);
        }
        if (seen.at(-1)?.type === "done") break; // k is past the last event: every point has been walked
        // no waiting here: a reader that went away gave its claim back at once
        const result = await finish(storage, style, halted.runId!, tools);
        await invariant(storage, halted.runId!, result, runs);
        expect(runs.city).toBe(1); // walking away loses nothing: the answered tool ran, and only once
      }
    }, 120_000);
  });
}
