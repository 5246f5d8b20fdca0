// Your own RunStorage: get/set/delete over any string store — here one file per key — so a run
// halted by one process is resumed by another:
//   node file-storage.js                  → halts, prints the runId and the Request id
//   node file-storage.js <runId> <id> Chennai  → resumes it
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { answerOutput, createInProcessClient } from "toolnexus";
import type { RunStorage } from "toolnexus";
import { generate, weather } from "./weather";

const dir = process.env.RUNS_DIR ?? ".runs";
const file = (key: string) => join(dir, encodeURIComponent(key));
const files: RunStorage = {
  capabilities: { atomic: false, ttl: false }, // no compareAndSet: a racing second resume is best effort
  get: (key) => readFile(file(key), "utf8").catch(() => undefined),
  set: async (key, value) => {
    await mkdir(dir, { recursive: true });
    await writeFile(file(key), value);
  },
  delete: (key) => rm(file(key), { force: true }),
};

const client = createInProcessClient({ model: "demo", generate, storage: files });
const [runId, requestId, reply] = process.argv.slice(2);
if (!runId) {
  const halted = await client.run("What's the weather?", { toolkit: [weather] });
  if (halted.status !== "pending") throw new Error(`expected the run to wait for an answer, got ${halted.status}`);
  console.log(halted.status, halted.runId, halted.pending.id);
} else {
  const done = await client.resume(runId, answerOutput(requestId!, reply ?? ""), { toolkit: [weather] });
  console.log(done.status, done.text);
}
