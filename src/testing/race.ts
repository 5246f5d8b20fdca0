// The resume race every atomic adapter is put through: one run halts into the storage, then many clients
// resume it at once with the scripted model — the tool's side effect must happen exactly once.
import { answerOutput, createClient, defineTool, pending, type RunStorage, type Tool } from "../index";
import { scripted } from "./scripted";

export interface RaceOutcome {
  /** How many times the suspended tool really ran after its answer (exactly once is the promise). */
  executions: number;
  fulfilled: number;
  /** The `code` (or name, for an untyped error) of every rejection. */
  rejected: string[];
  /** What the record says once the dust settles. */
  stored: string | undefined;
}

/** A tool that suspends once (Request id `q-<name>`) and counts its re-executions (the side effects exactly-once protects). */
export function countingTool(name = "book"): { tool: Tool; executions: () => number } {
  let executions = 0;
  const tool = defineTool({
    name,
    description: "books once approved",
    execute: async (_args, ctx) => {
      if (!ctx?.answer) return pending({ kind: "approval", prompt: `${name}?`, id: `q-${name}` });
      executions++;
      await new Promise((resolve) => setTimeout(resolve, 1)); // a real side effect takes time
      return `booked for ${ctx.answer.data?.output}`;
    },
  });
  return { tool, executions: () => executions };
}

/**
 * Halts one run into `storage`, then resumes it `n` times at once (each from its own client over `make()`,
 * as separate requests would), and reports how often the tool ran and how each resume ended.
 */
export async function raceResumes(
  storage: RunStorage,
  n = 100,
  make: () => RunStorage = () => storage,
): Promise<RaceOutcome> {
  const { tool, executions } = countingTool();
  const reply = scripted(
    "openai",
    Array.from({ length: n + 1 }, (_, i) => (i === 0 ? { calls: [{ name: "book" }] } : { text: "done" })),
  );
  const base = {
    baseUrl: "https://llm.test/v1",
    style: "openai",
    model: "m",
    apiKey: "sk-race",
    fetch: reply.fetch,
  } as const;
  const halted = await createClient({ ...base, storage }).run("book a table", { toolkit: [tool] });
  if (halted.status !== "pending") throw new Error(`the race needs a halted run, got ${halted.status}`);
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      createClient({ ...base, storage: make() }).resume(halted.runId!, answerOutput("q-book", `guest ${i}`), {
        toolkit: [tool],
      }),
    ),
  );
  const codeOf = (reason: unknown) =>
    String((reason as { code?: string; name?: string })?.code ?? (reason as Error)?.name ?? reason);
  const rejected = settled.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []));
  return {
    executions: executions(),
    fulfilled: settled.length - rejected.length,
    rejected,
    stored: await storage.get(`run:${halted.runId}`),
  };
}

export interface SweepOutcome {
  /** How many halted runs were due. */
  due: number;
  /** Every run id the sweepers reported as continued (each once is the promise). */
  continued: string[];
  /** How many model calls continued a run (one per due run is the promise). */
  continuations: number;
  /** How many times an expired approval's tool ran anyway (0 is the promise). */
  executions: number;
}

/**
 * Halts `runs` runs into `storage`, each waiting on an approval with a 60 s deadline, moves the clock past it,
 * then lets `sweepers` clients (each over its own `make()`, as separate processes would) call
 * `client.expire()` at once, and reports what they did: every run continued once, by one sweeper.
 */
export async function raceSweepers(
  storage: RunStorage,
  options: { runs?: number; sweepers?: number; make?: () => RunStorage } = {},
): Promise<SweepOutcome> {
  const { runs = 10, sweepers = 2, make = () => storage } = options;
  let executions = 0;
  const tool = defineTool({
    name: "book",
    description: "books once approved",
    needsApproval: true,
    approvalTimeoutSeconds: 60,
    execute: () => `booked ${++executions}`,
  });
  let continuations = 0;
  const reply = scripted(
    "openai",
    Array.from({ length: runs * (2 + sweepers) }, () => (body: Record<string, any>) => {
      if (body.messages?.at(-1)?.role === "user") return { calls: [{ name: "book" }] };
      continuations++;
      return { text: "done" };
    }),
  );
  let now = Date.now();
  const clock = { now: () => now };
  const base = { baseUrl: "https://llm.test/v1", style: "openai", model: "m", apiKey: "sk-race" } as const;
  const client = (s: RunStorage) => createClient({ ...base, fetch: reply.fetch, storage: s, clock });
  for (let i = 0; i < runs; i++) {
    const halted = await client(storage).run("book a table", { toolkit: [tool] });
    if (halted.status !== "pending") throw new Error(`the race needs halted runs, got ${halted.status}`);
  }
  now += 61_000;
  const swept = await Promise.all(Array.from({ length: sweepers }, () => client(make()).expire({ toolkit: [tool] })));
  return { due: runs, continued: swept.flatMap((s) => s.continued), continuations, executions };
}
