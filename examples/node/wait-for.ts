// Inline suspension: with `waitFor`, the run asks as soon as the tool suspends and carries on with
// the answer — nothing is stored. Here the answer comes from whoever is at the terminal.
import { createInterface } from "node:readline/promises";
import { answerOutput, createInProcessClient } from "toolnexus";
import type { PendingRequest } from "toolnexus";
import { generate, weather } from "./weather";

const terminal = createInterface({ input: process.stdin, output: process.stdout });

async function waitFor(request: PendingRequest) {
  const reply = await terminal.question(`${request.prompt} `);
  return answerOutput(request.id, reply.trim());
}

const client = createInProcessClient({ model: "demo", generate, waitFor });
const result = await client.run("What's the weather?", { toolkit: [weather] });
terminal.close();
console.log(result.text); // Forecast: 31 °C and humid in <what you typed>
