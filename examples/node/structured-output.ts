// Structured output: `output` asks the model for JSON of a schema (OpenAI `response_format`, Anthropic
// `output_config.format`), validates the final answer and returns it typed; a misfit is an OutputError.
import { createInProcessClient, isToolnexusError, jsonSchema } from "toolnexus";

const Forecast = jsonSchema<{ city: string; tempC: number; rain: boolean }>({
  type: "object",
  properties: { city: { type: "string" }, tempC: { type: "number" }, rain: { type: "boolean" } },
  required: ["city", "tempC", "rain"],
  additionalProperties: false,
}); // or v.object({ … }) (valibot), z.object({ … }) (zod), any Standard Schema

// a stand-in model that answers with JSON; a real one is createClient({ baseUrl, style, model, apiKey })
const client = createInProcessClient({
  model: "demo",
  generate: () => ({ content: '{"city":"Chennai","tempC":31,"rain":false}' }),
});

const result = await client.run("Weather in Chennai, as JSON", { output: Forecast });
if (result.status === "done") console.log(result.output.city, result.output.tempC); // typed: no cast, no `!`

try {
  const strict = createInProcessClient({ model: "demo", generate: () => ({ content: "It is hot." }) });
  await strict.run("Weather?", { output: Forecast });
} catch (error) {
  if (isToolnexusError(error) && error.code === "output") console.log("not a forecast:", error.message.length > 0);
  else throw error;
}
