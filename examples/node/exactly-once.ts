// Exactly once: two resumes of one suspension race (a double-clicked button, a retried webhook).
// On an atomic storage one wins; the other gets RunConflictError — or, for the same answer after
// the run finished, the stored outcome. Either way the tool ran once.
import { answerOutput, createInProcessClient, isToolnexusError, memoryStorage } from "toolnexus";
import { executions, generate, weather } from "./weather";

const client = createInProcessClient({ model: "demo", generate, storage: memoryStorage() });
const halted = await client.run("What's the weather?", { toolkit: [weather] });
if (halted.status !== "pending") throw new Error(`expected the run to wait for an answer, got ${halted.status}`);
const answer = answerOutput(halted.pending.id, "Chennai");

const outcomes = await Promise.allSettled([
  client.resume(halted.runId, answer, { toolkit: [weather] }),
  client.resume(halted.runId, answer, { toolkit: [weather] }),
]);
for (const outcome of outcomes) {
  if (outcome.status === "fulfilled") console.log("resumed:", outcome.value.text);
  else if (isToolnexusError(outcome.reason)) console.log("refused:", outcome.reason.code);
  else throw outcome.reason;
}
console.log("tool executions:", executions); // 1
