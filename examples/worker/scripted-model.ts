// The demo's default model: a deterministic script that plays an assistant over OpenAI-style messages,
// so `npm start` works offline with no key. It reads only the newest user turn and the tool results
// after it, and answers the way a tool-calling model would.

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
export type ScriptedTurn = { content: string } | { toolCalls: ScriptedCall[] };

export const CITIES = ["Chennai", "Berlin", "Lima"];

export const HELP =
  "I'm a scripted demo assistant. Try: “What's the weather?”, “Book a table for two tonight” or “What's on my calendar?”. " +
  "Each of them needs something only you can give — an answer, an approval or a sign-in.";

/** The scripted model, shaped as `createInProcessClient`'s `generate`. */
export function scriptedModel(req: { messages: unknown[] }): ScriptedTurn {
  const messages = req.messages as Message[];
  const userAt = messages.map((m) => m.role).lastIndexOf("user");
  const prompt = String(messages[userAt]?.content ?? "");
  const last = messages.at(-1);
  if (last?.role !== "tool") return firstMove(prompt, messages.length);
  const output = String(last.content ?? "");
  const name = toolNameOf(messages, last.tool_call_id);
  return afterTool(name, output, messages.length);
}

function firstMove(prompt: string, seq: number): ScriptedTurn {
  const text = prompt.toLowerCase();
  const call = (name: string, args: Record<string, unknown>) => ({
    toolCalls: [{ id: `call_${seq}`, name, arguments: args }],
  });
  if (/weather|forecast|rain|sunny|temperature/.test(text)) {
    const city = CITIES.find((c) => text.includes(c.toLowerCase()));
    if (city) return call("weather", { city });
    return call("question", {
      questions: [{ question: "Which city should I check the weather for?", options: CITIES }],
    });
  }
  if (/book|table|reserv|dinner/.test(text))
    return call("book_table", { restaurant: "Dakshin", time: "19:30", guests: 2 });
  if (/calendar|schedule|meeting|agenda/.test(text)) return call("calendar", { day: "tomorrow" });
  return { content: HELP };
}

function afterTool(name: string, output: string, seq: number): ScriptedTurn {
  if (output.startsWith("declined/expired:"))
    return { content: "No problem — I've left it there. Ask again whenever you like." };
  if (name === "question") {
    const city = cityFrom(output);
    if (!city) return { content: "I didn't catch a city there. Ask me again and pick one." };
    return { toolCalls: [{ id: `call_${seq}`, name: "weather", arguments: { city } }] };
  }
  if (name === "weather") return { content: `Here's the forecast — ${output}` };
  if (name === "book_table") return { content: `Done! ${output}` };
  if (name === "calendar") return { content: `Here's your day: ${output}` };
  return { content: output };
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
