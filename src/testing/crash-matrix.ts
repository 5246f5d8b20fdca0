// The exactly-once invariant under crashes and failed writes, as a suite any test runner can run against
// any atomic adapter:
//   crashMatrix("myStorage", () => myStorage(), { describe, it });
// A resume is stopped at its k-th storage operation (the operation throws, never settles — the process
// died — or reaches the store and its reply is lost) for every k, or its reader walks away after its k-th
// event for every k; then a fresh client resumes with the same answer. And, the process living on, the k-th
// storage operation of the whole multi-turn resume fails once — it throws before landing, or lands and then
// throws — for every k, while a page answers and, on an error, retries the same answer from a new client
// after the lease. Whatever k was, the run finishes, every tool ran at most once for its answer, a call
// whose outcome was lost is reported to the model as interrupted (never run again), and nothing is left
// claimed once the lease has passed.
import {
  answerOutput,
  ConfigError,
  createClient,
  defineTool,
  pending,
  type Answer,
  type PendingResult,
  type RunResult,
  type RunStorage,
  type StreamEvent,
} from "../index";
import { equal, ok } from "./assert";
import { scripted, toolResultsIn, type ScriptTurn } from "./scripted";
import type { ContractTestFunctions } from "./storage-contract";

export interface CrashMatrixOptions extends Partial<ContractTestFunctions> {
  /** The resumes' lease, in ms: a crashed owner's claim passes after it (default 25). */
  leaseMs?: number;
  /** The per-test time limit passed to `it`, in ms (default 120 000). */
  timeout?: number;
  /** The wires to run it on (default both). */
  styles?: readonly ("openai" | "anthropic")[];
  /**
   * Which ways a storage operation goes wrong (default all five): the process dying at it — `"throw"`,
   * `"hang"`, `"lost"` (it landed, the reply was lost) — or it failing once while the process lives on —
   * `"throws"` (before landing), `"lands-then-throws"`.
   */
  modes?: readonly (Crash | Fault)[];
}

/** How the process dies at the k-th operation: before it reaches the store (throw, hang), or after (lost). */
export type Crash = "throw" | "hang" | "lost";

/**
 * How the k-th operation fails once while the process lives on (a transient KV, Redis or Postgres error):
 * it throws before reaching the store, or it lands and then throws. Every other operation works.
 */
export type Fault = "throws" | "lands-then-throws";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Side-effecting tools that count how often they really ran (with their answer, for the suspending ones). */
function kit() {
  const runs = { city: 0, charge: 0, book: 0, approve: 0 };
  type Counted = keyof typeof runs;
  const asking = (name: string, counted: Counted, request: { kind: string; id: string; prompt: string }) =>
    defineTool({
      name,
      description: request.prompt,
      execute: async (_args, ctx) => {
        if (!ctx.answer) return pending(request);
        runs[counted]++;
        return `${name}=${String(ctx.answer.data?.output)}`;
      },
    });
  const effect = (name: Counted, output: string) =>
    defineTool({
      name,
      description: output,
      execute: async () => (runs[name]++, output),
    });
  const tools = [
    asking("ask_city", "city", { kind: "input", id: "q-city", prompt: "Which city?" }),
    effect("charge", "charged"),
    effect("book", "booked"),
    asking("approve", "approve", { kind: "approval", id: "q-ok", prompt: "Approve?" }),
  ];
  return { runs, tools };
}

/** The model, from what its transcript holds: ask + charge, then book, then approve, then the end. */
function model(style: "openai" | "anthropic") {
  const step = (body: Record<string, unknown>): ScriptTurn => {
    const seen = toolResultsIn(body).join("|");
    if (!seen) return { calls: [{ name: "ask_city" }, { name: "charge" }] };
    if (!/booked|interrupted: book/.test(seen)) return { calls: [{ name: "book" }] };
    if (!/approve=|interrupted: approve|declined/.test(seen)) return { calls: [{ name: "approve" }] };
    return { text: `done: ${seen}` };
  };
  return scripted(
    style,
    Array.from({ length: 400 }, () => step),
  );
}

/**
 * A storage whose k-th operation (1-based) crashes the "process" — every later operation fails the same
 * way — or, for a {@link Fault}, fails once and every later operation works.
 */
export function crashingStorage(
  inner: RunStorage,
  k: number,
  how: Crash | Fault,
): { storage: RunStorage; crashed: () => boolean } {
  let n = 0;
  let dead = false;
  const once = how === "throws" || how === "lands-then-throws";
  const op =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      if (dead && once) return fn(...a);
      if (!dead && ++n === k) {
        dead = true;
        // the write reached the store; the process died (or the reply was lost) before it heard back
        if (how === "lost" || how === "lands-then-throws")
          return fn(...a).then(() => Promise.reject(new Error(`storage op ${k} failed after it landed`)));
        if (once) return Promise.reject(new Error(`storage op ${k} failed`));
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

interface World {
  style: "openai" | "anthropic";
  leaseMs: number;
}

const clientOn = (w: World, storage: RunStorage) =>
  createClient({
    baseUrl: "https://llm.test",
    style: w.style,
    model: "m",
    fetch: model(w.style).fetch,
    storage,
    claimLeaseMs: w.leaseMs,
  });

const cityAnswer = (): Answer => answerOutput("q-city", "Oslo");

/** The runId of a run that must have halted on its question. */
function haltedRunId(result: RunResult): string {
  equal(result.status, "pending", "the first run, halted on its question");
  return (result as PendingResult).runId;
}

/** Resumes with the same answer until the run is done (answering the approval when it comes), as a page would. */
async function finish(w: World, storage: RunStorage, runId: string, tools: unknown[]): Promise<RunResult> {
  const client = clientOn(w, storage);
  let result = await client.resume(runId, cityAnswer(), { toolkit: tools as never });
  if (result.status === "pending") {
    equal(result.pending?.id, "q-ok", "the request still open after the answered one");
    result = await client.resume(runId, answerOutput("q-ok", "yes"), { toolkit: tools as never });
  }
  return result;
}

async function invariant(storage: RunStorage, runId: string, result: RunResult, runs: ReturnType<typeof kit>["runs"]) {
  equal(result.status, "done", "the run, finished by a fresh client");
  equal(runs.charge, 1, "runs of charge, which ran in the first turn, before the answer");
  for (const [name, count] of [
    ["ask_city", runs.city],
    ["book", runs.book],
    ["approve", runs.approve],
  ] as const) {
    ok(count <= 1, `${name} ran at most once (it ran ${count} times)`);
    // a call that never finished was reported to the model as interrupted, not run again
    if (count === 0) ok(result.text.includes(`interrupted: ${name} did not finish`), `${name} reported as interrupted`);
  }
  const stored = await storage.get(`run:${runId}`);
  if (stored !== undefined)
    equal(JSON.parse(stored).status, "done", "the stored run once finished (nothing left claimed)");
}

/** One resume crashed at its k-th storage operation, then finished by a fresh client; false once k is past the last operation. */
async function crashAt(
  w: World,
  make: () => RunStorage | Promise<RunStorage>,
  k: number,
  how: Crash,
): Promise<boolean> {
  const inner = await make();
  const { runs, tools } = kit();
  const runId = haltedRunId(await clientOn(w, inner).run("trip", { toolkit: tools }));
  const { storage, crashed } = crashingStorage(inner, k, how);
  let settled: RunResult | undefined;
  let over = false;
  void clientOn(w, storage)
    .resume(runId, cityAnswer(), { toolkit: tools })
    .then(
      (r) => {
        settled = r;
        over = true;
      },
      () => {
        over = true;
      },
    );
  // until the resume is over or its process died (a crash that hangs never settles: it is left behind)
  while (!over && !(how === "hang" && crashed())) await sleep(1);
  if (!crashed()) {
    equal(settled?.status, "pending", "a resume no crash reached (it stops at the approval)");
    return false;
  }
  await sleep(w.leaseMs * 2); // the lease of the dead owner passes
  await invariant(inner, runId, await finish(w, inner, runId, tools), runs);
  return true;
}

/**
 * A page's answers — the city, then the approval when it comes — each retried with the same answer from a
 * new client after the lease when a resume fails; at most `tries` resumes in all.
 */
async function answerAndRetry(w: World, storage: RunStorage, runId: string, tools: unknown[]): Promise<RunResult> {
  let answer = cityAnswer();
  let failure: unknown;
  for (let tries = 0; tries < 6; tries++) {
    let result: RunResult;
    try {
      result = await clientOn(w, storage).resume(runId, answer, { toolkit: tools as never });
    } catch (error) {
      failure = error;
      await sleep(w.leaseMs * 2); // the failed owner's claim, if it stayed, passes
      continue;
    }
    if (result.status !== "pending") return result;
    equal(result.pending?.id, "q-ok", "the request still open after the answered one");
    answer = answerOutput("q-ok", "yes");
  }
  throw failure;
}

/** The k-th storage operation of the whole resume fails once (`how`); false once k is past the last operation. */
async function faultAt(w: World, make: () => RunStorage | Promise<RunStorage>, k: number, how: Fault) {
  const inner = await make();
  const { runs, tools } = kit();
  const runId = haltedRunId(await clientOn(w, inner).run("trip", { toolkit: tools }));
  const { storage, crashed } = crashingStorage(inner, k, how);
  const result = await answerAndRetry(w, storage, runId, tools);
  if (!crashed()) return false;
  await invariant(inner, runId, result, runs);
  return true;
}

/** A reader that walks away after its k-th event, then the same answer; false once k is past the last event. */
async function walkAwayAt(w: World, make: () => RunStorage | Promise<RunStorage>, k: number): Promise<boolean> {
  const storage = await make();
  const { runs, tools } = kit();
  const client = clientOn(w, storage);
  const runId = haltedRunId(await client.run("trip", { toolkit: tools }));
  const seen: StreamEvent[] = [];
  for await (const event of client.resumeStream(runId, cityAnswer(), { toolkit: tools })) {
    if (seen.length === k) break;
    seen.push(event);
  }
  if (seen.at(-1)?.type === "done") return false;
  // no waiting here: a reader that went away gave its claim back at once
  await invariant(storage, runId, await finish(w, storage, runId, tools), runs);
  equal(runs.city, 1, "runs of the answered tool (walking away loses nothing)");
  return true;
}

/**
 * Registers the crash matrix for an atomic adapter (call it at the top level of a test file). `makeStorage`
 * may return the same adapter every time: each crash point uses a run of its own.
 *
 * Per wire, one test per mode (`opts.modes`, default all):
 * - `"throw"`, `"hang"`, `"lost"`: the resume's k-th storage operation kills its process — it throws, never
 *   settles, or lands and its reply is lost — for every k; after the lease a fresh client resumes with the
 *   same answer and finishes the run.
 * - `"throws"`, `"lands-then-throws"`: the k-th storage operation of the whole multi-turn resume (the
 *   answer, then the approval it leads to) fails once — before it lands, or after — for every k, the
 *   process living on; a page retries each failed resume with the same answer from a new client after the
 *   lease, and the run finishes. Your adapter passes only if a write that fails never leaves a record a
 *   later resume cannot read.
 * And a reader that walks away after its k-th event, for every k. Every time, each tool ran at most once
 * for its answer and nothing stays claimed.
 */
export function crashMatrix(
  name: string,
  makeStorage: () => RunStorage | Promise<RunStorage>,
  opts: CrashMatrixOptions = {},
): void {
  const g = globalThis as Partial<ContractTestFunctions>;
  const describe = opts.describe ?? g.describe;
  const it = opts.it ?? g.it;
  if (typeof describe !== "function" || typeof it !== "function")
    throw new ConfigError(
      "it",
      "toolnexus/testing: crashMatrix needs your runner's test functions — crashMatrix(name, make, { describe, it })",
    );
  const timeout = opts.timeout ?? 120_000;
  for (const style of opts.styles ?? (["openai", "anthropic"] as const)) {
    const w: World = { style, leaseMs: opts.leaseMs ?? 25 };
    describe(`the crash matrix on ${name} (${style})`, () => {
      const modes = opts.modes ?? ["throw", "hang", "lost", "throws", "lands-then-throws"];
      for (const how of (["throw", "hang", "lost"] as const).filter((m) => modes.includes(m))) {
        it(
          `a resume stopped at its k-th storage operation (${how}), for every k: a fresh client finishes it, no tool twice`,
          async () => {
            let points = 0;
            while (await crashAt(w, makeStorage, points + 1, how)) points++;
            ok(points > 3, `crash points walked (${points}): a resume makes more storage operations than that`);
          },
          timeout,
        );
      }
      for (const how of (["throws", "lands-then-throws"] as const).filter((m) => modes.includes(m))) {
        it(
          `the k-th storage operation of a multi-turn resume fails once (${how}), for every k: the same answer, retried, finishes it, no tool twice`,
          async () => {
            let points = 0;
            while (await faultAt(w, makeStorage, points + 1, how)) points++;
            ok(
              points > 6,
              `fault points walked (${points}): a multi-turn resume makes more storage operations than that`,
            );
          },
          timeout,
        );
      }
      it(
        "a reader that walks away after its k-th event, for every k: the same answer finishes the run, no tool twice",
        async () => {
          for (let k = 0; await walkAwayAt(w, makeStorage, k); k++);
        },
        timeout,
      );
    });
  }
}
