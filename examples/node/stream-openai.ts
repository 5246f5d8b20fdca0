// A real model, streamed: any OpenAI-style endpoint (OpenAI, OpenRouter, a local server). The key
// comes from apiKey or OPENAI_API_KEY / OPENROUTER_API_KEY; it is only ever sent as a header.
//   BASE_URL=https://api.openai.com/v1 MODEL=gpt-4o-mini OPENAI_API_KEY=sk-… node stream-openai.js
import { createClient } from "toolnexus";
import { weather } from "./weather";

const client = createClient({
  baseUrl: process.env.BASE_URL ?? "https://api.openai.com/v1",
  style: "openai", // or "anthropic" for Anthropic's Messages API
  model: process.env.MODEL ?? "gpt-4o-mini",
});

for await (const event of client.stream("Say hello, then tell me the weather.", { toolkit: [weather] })) {
  if (event.type === "text") process.stdout.write(event.delta);
  if (event.type === "tool_call") console.log(`\n[calling ${event.name}]`);
  if (event.type === "pending") console.log(`\n[the tool asks: ${event.request.prompt}] run ${event.runId}`);
  if (event.type === "done") console.log(`\n[${event.result.status}]`);
}
