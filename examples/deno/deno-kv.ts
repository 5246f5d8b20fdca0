// Deno: a run halts into Deno KV, and after a restart a second client resumes it. Deno KV's
// versionstamp checks make the claim atomic, so an answer is used exactly once.
//   deno run --unstable-kv --allow-read --allow-write deno-kv.ts runs.db
import {
  answerOutput,
  createInProcessClient,
  defineTool,
  denoKvStorage,
  pending,
} from "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";
import type { GenerateRequest } from "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";

const weather = defineTool({
  name: "weather",
  description: "The weather where the user is",
  execute: async (_args, ctx) =>
    ctx?.answer ? `31 °C and humid in ${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?" }),
});
// A stand-in model (call the tool, then report its result); use createClient for a real one.
function generate({ messages }: GenerateRequest) {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool"
    ? { content: `Forecast: ${last.content}` }
    : { toolCalls: [{ name: "weather", arguments: {} }] };
}

const path = Deno.args[0] ?? "runs.db";
let kv = await Deno.openKv(path);
const first = createInProcessClient({ model: "demo", generate, storage: denoKvStorage({ kv }) });
const halted = await first.run("What's the weather?", { toolkit: [weather] });
console.log(halted.status, halted.pending?.prompt); // pending Which city?
kv.close();

kv = await Deno.openKv(path); // a restart: nothing is left in memory, the run is in KV
const second = createInProcessClient({ model: "demo", generate, storage: denoKvStorage({ kv }) });
const done = await second.resume(halted.runId!, answerOutput(halted.pending!.id, "Chennai"), { toolkit: [weather] });
console.log(done.status, done.text); // done Forecast: 31 °C and humid in Chennai
kv.close();
