// The scripted endpoint's OpenAI Responses API and Gemini replies: a script turn as the JSON each provider
// answers with, and as its event stream (Responses: typed `event:` lines; Gemini: `data:` chunks, CRLF).

/** The script's call and turn (`ScriptCall`, `ScriptTurn` in scripted.ts), as much as these replies read. */
interface ScriptCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  raw?: string;
}
interface ScriptTurn {
  text?: string;
  calls?: ScriptCall[];
  usage?: { prompt: number; completion: number };
}

const argsOf = (c: ScriptCall) => c.raw ?? JSON.stringify(c.args ?? {});
const usageOf = (t: ScriptTurn) => t.usage ?? { prompt: 10, completion: 5 };

export function responsesJson(t: ScriptTurn, i: number) {
  const output: Record<string, unknown>[] = [];
  if (t.text)
    output.push({
      type: "message",
      id: `msg_${i}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: t.text, annotations: [] }],
    });
  (t.calls ?? []).forEach((c, k) =>
    output.push({
      type: "function_call",
      id: `fc_${i}_${k}`,
      call_id: c.id ?? `call_${i}_${k}`,
      name: c.name,
      arguments: argsOf(c),
      status: "completed",
    }),
  );
  const u = usageOf(t);
  const usage = { input_tokens: u.prompt, output_tokens: u.completion, total_tokens: u.prompt + u.completion };
  return { id: `resp_${i}`, object: "response", status: "completed", model: "m", output, usage };
}

export function responsesSse(t: ScriptTurn, i: number): string {
  const json = responsesJson(t, i);
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let out = ev("response.created", { response: { ...json, status: "in_progress", output: [], usage: null } });
  json.output.forEach((item, index) => {
    if (item.type === "message") {
      out += ev("response.output_item.added", { output_index: index, item: { ...item, content: [] } });
      const text = t.text ?? "";
      for (let k = 0; k < text.length; k += 3)
        out += ev("response.output_text.delta", { output_index: index, content_index: 0, delta: text.slice(k, k + 3) });
    } else {
      out += ev("response.output_item.added", { output_index: index, item: { ...item, arguments: "" } });
      const a = String(item.arguments);
      const half = Math.floor(a.length / 2);
      for (const delta of [a.slice(0, half), a.slice(half)])
        out += ev("response.function_call_arguments.delta", { output_index: index, item_id: item.id, delta });
    }
    out += ev("response.output_item.done", { output_index: index, item });
  });
  return out + ev("response.completed", { response: json });
}

/** Gemini arguments are an object: a raw script string that parses is sent parsed, else as it is. */
function geminiArgs(c: ScriptCall): unknown {
  if (c.raw === undefined) return c.args ?? {};
  try {
    return JSON.parse(c.raw);
  } catch {
    return c.raw;
  }
}

const geminiCall = (c: ScriptCall) => ({
  functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: geminiArgs(c) },
});

export function geminiJson(t: ScriptTurn) {
  const parts: unknown[] = [...(t.text ? [{ text: t.text }] : []), ...(t.calls ?? []).map(geminiCall)];
  const u = usageOf(t);
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: u.prompt,
      candidatesTokenCount: u.completion,
      totalTokenCount: u.prompt + u.completion,
    },
  };
}

export function geminiSse(t: ScriptTurn): string {
  const json = geminiJson(t);
  const chunk = (parts: unknown[], last: boolean) => {
    const candidate = { content: { role: "model", parts }, index: 0, ...(last ? { finishReason: "STOP" } : {}) };
    return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata: json.usageMetadata })}\r\n\r\n`;
  };
  let out = "";
  const text = t.text ?? "";
  for (let k = 0; k < text.length; k += 3) out += chunk([{ text: text.slice(k, k + 3) }], false);
  return out + chunk((t.calls ?? []).map(geminiCall), true);
}
