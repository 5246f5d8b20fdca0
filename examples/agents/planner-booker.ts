// A planner delegates to a booker whose booking needs an approval. Nobody nearer answers it, so the
// question reaches the planner's run as its own open request, with data.path naming who asks. A fresh
// client on the same storage (another process, after a restart) answers it: the booker resumes where it
// asked, the planner's `task` call reattaches to it, and the booking runs once.
import { answerApproval, createInProcessClient, defineTool, memoryStorage, type GenerateRequest } from "toolnexus";
import { agent } from "toolnexus/agents";

let bookings = 0;
const bookTable = defineTool({
  name: "book_table",
  description: "Books a table",
  inputSchema: { type: "object", properties: { day: { type: "string" } }, required: ["day"] },
  needsApproval: true,
  execute: async (args) => {
    bookings++;
    return `table booked for ${String(args.day)}`;
  },
});

/** A scripted model for each agent: delegate (or book), then report what the tool said. */
function generate(req: GenerateRequest) {
  const results = (req.messages as { role: string; content: string }[]).filter((m) => m.role === "tool");
  if (results.length > 0) return { content: `${req.model}: ${results.map((m) => m.content).join("; ")}` };
  if (req.model === "planner-model")
    return { toolCalls: [{ name: "task", arguments: { agent: "booker", prompt: "Book a table on Friday" } }] };
  return { toolCalls: [{ name: "book_table", arguments: { day: "Friday" } }] };
}

const booker = agent("booker", { does: "books tables", model: "booker-model", tools: [bookTable] });
const planner = agent("planner", { does: "plans evenings", model: "planner-model", team: [booker] });

const storage = memoryStorage(); // sqliteStorage(...) in a server: it survives the restart too
const first = await planner.run("Dinner in Chennai on Friday", {
  client: createInProcessClient({ model: "default", generate, storage }),
});
if (first.status !== "pending") throw new Error(`expected a question, got ${first.status}`);
const path = first.pending.data?.path as string[]; // the handle that asks, from the root down
console.log("asks:", path.join("/"), first.pending.prompt);

// later, elsewhere: a fresh client on the same storage answers it
const done = await planner.resume(first.runId, answerApproval(first.pending.id), {
  client: createInProcessClient({ model: "default", generate, storage }),
});
console.log("done:", done.text);
console.log("bookings:", bookings);
