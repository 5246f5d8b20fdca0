// Expiry: `client.expire()` over 10,000 halted runs of which 100 are due (semantics 8). The due runs are
// found through the deadline index the record store keeps beside them, so the sweep reads the records of
// the due runs alone — counted here by a wrapper around memoryStorage — and continues each once.
import { performance } from "node:perf_hooks";
import { requireOurs } from "./ours.mjs";
import { fmtMs, table } from "./lib.mjs";

const NEEDS = ["createInProcessClient", "defineTool", "memoryStorage", "pending"];

/** memoryStorage, counting the reads of run records and of everything else. */
function countedStorage(tn) {
  const inner = tn.memoryStorage();
  const reads = { runs: new Set(), records: 0, other: 0 };
  const storage = {
    capabilities: inner.capabilities,
    get: (k) => {
      if (k.startsWith("run:")) {
        reads.records++;
        reads.runs.add(k);
      } else reads.other++;
      return inner.get(k);
    },
    set: (k, v, o) => inner.set(k, v, o),
    delete: (k) => inner.delete(k),
    compareAndSet: (k, e, v, o) => inner.compareAndSet(k, e, v, o),
  };
  const reset = () => {
    reads.runs.clear();
    reads.records = reads.other = 0;
  };
  return { storage, reads, reset };
}

/** Halts `total` runs, `due` of them due in 60 s and the rest spread over the hours after; sweeps once. */
async function measure(tn, total, due) {
  let now = Date.parse("2030-01-01T00:00:00Z");
  const clock = { now: () => now };
  const { storage, reads, reset } = countedStorage(tn);
  const ask = tn.defineTool({
    name: "ask",
    description: "asks the user",
    execute: (args, ctx) =>
      ctx?.answer
        ? "answered"
        : tn.pending({ kind: "question", prompt: "Go?", expiresAt: new Date(now + args.in * 1000).toISOString() }),
  });
  let halted = 0;
  const client = tn.createInProcessClient({
    model: "scripted",
    storage,
    clock,
    generate: ({ messages }) => {
      if (messages[messages.length - 1]?.role === "tool") return { content: "ok" };
      const i = halted++;
      // the due runs first, at 60 s; the rest an hour on and after, ~60 to a minute
      const seconds = i < due ? 60 : 3_600 + i;
      return { toolCalls: [{ id: "call_ask", name: "ask", arguments: { in: seconds } }] };
    },
  });
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const result = await client.run("go", { toolkit: [ask] });
    if (result.status !== "pending") throw new Error(`expected a halted run, got ${result.status}`);
  }
  const haltMs = performance.now() - t0;
  now += 120_000;
  reset();
  const t1 = performance.now();
  const { continued } = await client.expire({ toolkit: [ask] });
  const expireMs = performance.now() - t1;
  return {
    total,
    due,
    continued: continued.length,
    runsRead: reads.runs.size,
    records: reads.records,
    index: reads.other,
    haltMs,
    expireMs,
  };
}

export async function bench({ smoke }) {
  const tn = await requireOurs([...NEEDS]);
  const [total, due] = smoke ? [200, 2] : [10_000, 100];
  const r = await measure(tn, total, due);
  const checks = [
    { name: `expire: continues the ${due} due runs of ${total}`, ok: r.continued === due },
    { name: `expire: reads the records of the due runs alone (${r.runsRead} of ${total})`, ok: r.runsRead === due },
  ];
  const text = [
    `${total.toLocaleString("en")} runs halted into a counted \`memoryStorage\`, each on a question with a deadline: ${due} due in 60 s, the rest an hour on and after; the clock moves 2 minutes, then one \`client.expire({ toolkit })\`. The sweep finds the due runs through the deadline index (a directory of minutes and a bucket per minute, in the same storage) and reads no other run's record; each run it continues also has its event log's head read (a continuation streams into the log of a run a handler served).`,
    "",
    table(
      [
        "Halted runs",
        "Due",
        "Continued",
        "Run records read (distinct)",
        "Record reads",
        "Index and log-head reads",
        "expire()",
        "halting them all",
      ],
      [[total, due, r.continued, r.runsRead, r.records, r.index, fmtMs(r.expireMs), fmtMs(r.haltMs)].map(String)],
    ),
  ].join("\n");
  return {
    id: "expire",
    title: "Expiry: client.expire() over halted runs, the due ones alone",
    text,
    results: r,
    checks,
  };
}
