// A run halted by one process and resumed by another, through one SQLite file — no database server:
//   node sqlite-storage.js                       → halts, prints the runId and the Request id
//   node sqlite-storage.js <runId> <id> Chennai  → (a new process) resumes it
// Node 20 brings better-sqlite3; on Node ≥ 22.13, Bun and Deno the runtime's own SQLite does the same:
//   import { DatabaseSync } from "node:sqlite";  const database = new DatabaseSync("runs.db");
import Database from "better-sqlite3";
import { answerOutput, createInProcessClient, sqliteStorage } from "toolnexus";
import { generate, weather } from "./weather";

const database = new Database(process.env.RUNS_DB ?? "runs.db");
const client = createInProcessClient({ model: "demo", generate, storage: sqliteStorage({ database }) });

const [runId, requestId, reply] = process.argv.slice(2);
if (!runId) {
  const halted = await client.run("What's the weather?", { toolkit: [weather] });
  if (halted.status !== "pending") throw new Error(`expected the run to wait for an answer, got ${halted.status}`);
  console.log(halted.status, halted.runId, halted.pending.id);
} else {
  const done = await client.resume(runId, answerOutput(requestId ?? "", reply ?? ""), { toolkit: [weather] });
  console.log(done.status, done.text);
}
database.close();
