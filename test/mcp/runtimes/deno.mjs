// The MCP client scenarios in a Deno process: `deno run --unstable-kv … deno.js <kv path> '<steps JSON>'`
// prints the steps' results as one line of JSON. Runs halt into Deno KV, which the next process opens again.
import { denoKvStorage } from "../../../dist/index.js";
import { runSteps } from "./scenarios.mjs";

const [path, list] = Deno.args;
const kv = await Deno.openKv(path);
try {
  const results = await runSteps(JSON.parse(list), denoKvStorage({ kv, prefix: ["mcp"] }));
  console.log(JSON.stringify({ pid: Deno.pid, results }));
} finally {
  kv.close();
}
