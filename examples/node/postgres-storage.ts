// Suspended runs in Postgres: one process halts into a row of toolnexus_runs (created on first use),
// another resumes it — exactly once, however many race for it:
//   DATABASE_URL=postgres://… node postgres-storage.js                 → pending <runId> <Request id>
//   DATABASE_URL=postgres://… node postgres-storage.js <runId> <id> Chennai  → done Forecast: …
import pg from "pg";
import { answerOutput, createInProcessClient, postgresStorage } from "toolnexus";
import { generate, weather } from "./weather";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const client = createInProcessClient({ model: "demo", generate, storage: postgresStorage({ client: pool }) });
const [runId, requestId, reply] = process.argv.slice(2);
if (!runId) {
  const halted = await client.run("What's the weather?", { toolkit: [weather] });
  if (halted.status === "pending") console.log(halted.status, halted.runId, halted.pending.id);
  else console.log(halted.status);
} else {
  const done = await client.resume(runId, answerOutput(requestId!, reply ?? ""), { toolkit: [weather] });
  console.log(done.status, done.text);
}
await pool.end();
