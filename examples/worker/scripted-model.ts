// The demo's default model: a deterministic script that plays an assistant over OpenAI-style messages,
// so `npm start` works offline with no key. It reads only the newest user turn, the tool results after it
// and the names of the tools it is offered, and answers the way a tool-calling model would.

interface Message {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}
export interface ScriptedCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
/** A turn: its text and tool calls; `paceMs` sends its text one word each `paceMs` (a slow, long answer). */
export type ScriptedTurn = ({ content: string } | { content?: string; toolCalls: ScriptedCall[] }) & {
  paceMs?: number;
};

export const CITIES = ["Chennai", "Berlin", "Lima"];
const DESTINATIONS = ["Lisbon", "Kyoto", "Chennai", "Berlin", "Lima"];
/** The trip planner's tool: `plan_trip` of the MCP server demo.ts connects as "trips". */
export const TRIP_TOOL = "trips_plan_trip";

export const HELP =
  "I'm a scripted demo assistant. Try: “What's the weather?”, “Book a table for two tonight”, “Book dinner and a taxi”, " +
  "“What's on my calendar?”, “Check my flight”, “Tell me a story” (a long answer: reload or stop it midway) or “Plan a trip to Lisbon” (a remote MCP tool that asks you to fill in a form). " +
  "Most of them need something only you can give — an answer, an approval, a sign-in or a form.";

/** The long answer ("Tell me a story"), streamed a word each LONG_PACE_MS: long enough to reload or stop it. */
export const LONG_ANSWER =
  "Once upon a time a traveller packed one small bag and a long list of questions. At the first station she asked " +
  "the weather, and the clerk had to ask her which city she meant. At the second she wanted a table for two, and " +
  "nobody booked it until she said yes. At the third the taxi and the table both waited for her word, one after " +
  "the other, in whatever order she gave it. She reloaded her map twice on the way and never lost her place, " +
  "because every step she had taken was written down where she could find it again. The end.";
export const LONG_PACE_MS = 120;

/** The scripted model: the next turn for OpenAI-style messages and tool declarations. */
export function scriptedModel(req: { messages: unknown[]; tools?: unknown[] }): ScriptedTurn {
  const messages = req.messages as Message[];
  const userAt = messages.map((m) => m.role).lastIndexOf("user");
  const prompt = String(messages[userAt]?.content ?? "");
  const last = messages.at(-1);
  if (last?.role !== "tool") return firstMove(prompt, messages.length, toolNames(req.tools));
  const results = messages.slice(messages.map((m) => m.role).lastIndexOf("assistant") + 1);
  if (results.length > 1) return afterTools(results.map((m) => String(m.content ?? "")));
  const output = String(last.content ?? "");
  const name = toolNameOf(messages, last.tool_call_id);
  return afterTool(name, output, messages.length);
}

/** One turn asked several tools at once (two approvals): one reply once every one has its result. */
function afterTools(outputs: string[]): ScriptedTurn {
  const said = outputs.map((o) => (o.startsWith("declined/expired:") ? "Skipped, as you asked." : o));
  return { content: `All set — ${said.join(" ")}` };
}

function firstMove(prompt: string, seq: number, offered: Set<string>): ScriptedTurn {
  const text = prompt.toLowerCase();
  const call = (name: string, args: Record<string, unknown>) => ({
    toolCalls: [{ id: `call_${seq}`, name, arguments: args }],
  });
  if (/\bstory\b/.test(text)) return { content: LONG_ANSWER, paceMs: LONG_PACE_MS };
  // the planner agent (it is offered `task`): a booking goes to its booker, which asks for the approval
  if (offered.has("task") && /book|table|reserv|dinner|evening/.test(text))
    return call("task", { agent: "booker", prompt: "Book a table for two at Dakshin, 19:30 tonight" });
  if (/\btrips?\b|holiday|vacation|getaway|itinerar/.test(text)) {
    if (!offered.has(TRIP_TOOL))
      return {
        content:
          "The trip planner (an MCP server that `npm start` runs beside the demo) is not connected, so I can't plan trips right now.",
      };
    const destination = DESTINATIONS.find((d) => text.includes(d.toLowerCase())) ?? "Lisbon";
    return call(TRIP_TOOL, { destination });
  }
  if (/weather|forecast|rain|sunny|temperature/.test(text)) {
    const city = CITIES.find((c) => text.includes(c.toLowerCase()));
    if (city) return call("weather", { city });
    return call("question", {
      questions: [{ question: "Which city should I check the weather for?", options: CITIES }],
    });
  }
  if (/taxi|cab/.test(text))
    return {
      toolCalls: [
        { id: `call_${seq}_a`, name: "book_table", arguments: { restaurant: "Dakshin", time: "19:30", guests: 2 } },
        { id: `call_${seq}_b`, name: "book_taxi", arguments: { pickup: "19:00", to: "Dakshin" } },
      ],
    };
  if (/flight/.test(text))
    return {
      content: "Checking your flight — live data takes a moment… ",
      toolCalls: [{ id: `call_${seq}`, name: "flight_status", arguments: { flight: "AI 540" } }],
    };
  if (/book|table|reserv|dinner/.test(text))
    return call("book_table", { restaurant: "Dakshin", time: "19:30", guests: 2 });
  if (/calendar|schedule|meeting|agenda/.test(text)) return call("calendar", { day: "tomorrow" });
  return { content: HELP };
}

function afterTool(name: string, output: string, seq: number): ScriptedTurn {
  if (name === TRIP_TOOL) {
    if (output.startsWith("Planned ")) return { content: `Your trip is planned! ${output}` };
    if (/not planned/.test(output))
      return { content: "No problem — I haven't planned anything. Ask again whenever you like." };
    return { content: `The trip planner could not finish: ${output}` };
  }
  if (output.startsWith("declined/expired:"))
    return { content: "No problem — I've left it there. Ask again whenever you like." };
  if (name === "question") {
    const city = cityFrom(output);
    if (!city) return { content: "I didn't catch a city there. Ask me again and pick one." };
    return { toolCalls: [{ id: `call_${seq}`, name: "weather", arguments: { city } }] };
  }
  if (name === "weather") return { content: `Here's the forecast — ${output}` };
  if (name === "book_table") return { content: `Done! ${output}` };
  if (name === "task") return { content: `The booker says: ${output}` };
  if (name === "calendar") return { content: `Here's your day: ${output}` };
  if (name === "flight_status") return { content: output };
  return { content: output };
}

/** The names of the tools the model is offered (OpenAI-style declarations: `{ function: { name } }`). */
function toolNames(tools: unknown[] | undefined): Set<string> {
  const names = (tools ?? []).map((t) => (t as { function?: { name?: unknown } } | null)?.function?.name);
  return new Set(names.filter((n): n is string => typeof n === "string"));
}

function toolNameOf(messages: Message[], callId: string | undefined): string {
  for (const m of messages) for (const c of m.tool_calls ?? []) if (c.id === callId) return c.function.name;
  return "";
}

/** The city in the `question` tool's output (`{"output":"Chennai"}`), or "" when there is none. */
function cityFrom(output: string): string {
  try {
    const data = JSON.parse(output) as { output?: unknown };
    return typeof data.output === "string" ? data.output.trim().slice(0, 60) : "";
  } catch {
    return "";
  }
}
