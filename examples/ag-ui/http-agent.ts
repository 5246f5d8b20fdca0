// An AG-UI front end (here AG-UI's own HttpAgent; CopilotKit and assistant-ui speak the same) in front of
// toolnexus: a deploy that needs approval halts the run as an interrupt, and a resume approves it.
// The model is a stand-in so the example runs without a key; put createClient({ ... }) in its place.
import { createServer } from "node:http";
import { buildResumeArray, HttpAgent } from "@ag-ui/client";
import { createInProcessClient, defineTool } from "toolnexus";
import { createAgUiHandler } from "toolnexus/ag-ui";

const deploy = defineTool({
  name: "deploy",
  description: "Deploys the site",
  needsApproval: true,
  execute: () => "deployed",
});
const client = createInProcessClient({
  model: "stand-in",
  generate: ({ messages }) =>
    (messages.at(-1) as { role: string }).role === "tool"
      ? { content: "Deployed." }
      : { toolCalls: [{ id: "call_1", name: "deploy", arguments: {} }] },
});
const handler = createAgUiHandler({ client, toolkit: [deploy] });

// any fetch-style server works (a Worker's fetch, Deno.serve); node:http needs a small adapter
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: req.method,
    headers: req.headers as Record<string, string>,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body?.getReader();
  for (let step = await reader?.read(); step && !step.done; step = await reader!.read()) res.write(step.value);
  res.end();
}).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const { port } = server.address() as { port: number };

const agent = new HttpAgent({ url: `http://127.0.0.1:${port}`, threadId: "thread-1" });
agent.addMessage({ id: "m1", role: "user", content: "Deploy the site" });
await agent.runAgent();
const [interrupt] = agent.pendingInterrupts;
console.log(`interrupt: ${interrupt?.reason} — ${interrupt?.message}`);

// the user approves: one entry per open interrupt, with the token it came with
const resume = buildResumeArray(agent.pendingInterrupts, {
  [interrupt!.id]: { status: "resolved", payload: { approved: true }, metadata: interrupt!.metadata },
});
await agent.runAgent({ resume });
console.log(`reply: ${agent.messages.at(-1)?.content}`);
server.close();
