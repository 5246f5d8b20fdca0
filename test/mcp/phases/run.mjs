// One phase of a durable MCP run, in a process of its own:
//   node test/mcp/phases/run.mjs '{"phase":"halt","url":…,"dir":…,"calls":[{name,args}],"headers":{…}}'
//   node test/mcp/phases/run.mjs '{"phase":"resume","url":…,"dir":…,"runId":…,"answer":{…}}'
// `"approve": ["deploy"]` connects with `needsApproval` for those tools of the server.
// It connects with connectMcp (its own client, its own JSON-RPC ids), keeps runs in a file-backed storage,
// and prints one line of JSON: the run's summary, or the error it threw.
import { connectMcp } from "../../../dist/mcp.js";
import { fileStorage } from "../support/file-storage.mjs";
import { scriptedClient, summary } from "../support/scripted.mjs";

const config = JSON.parse(process.argv[2]);
const needsApproval = config.approve && Object.fromEntries(config.approve.map((tool) => [tool, true]));
const connection = await connectMcp({ name: "test server", url: config.url, headers: config.headers, needsApproval });
if (connection.status !== "connected") throw connection.error;
const client = scriptedClient({ calls: config.calls ?? [], storage: fileStorage(config.dir) });
let out;
try {
  const result =
    config.phase === "halt"
      ? await client.run("go", { toolkit: connection.tools })
      : await client.resume(config.runId, config.answer, { toolkit: connection.tools });
  out = { pid: process.pid, ...summary(result) };
} catch (error) {
  out = { pid: process.pid, error: { name: error.name, code: error.code, message: error.message } };
}
await connection.close();
console.log(JSON.stringify(out));
