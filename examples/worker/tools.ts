// The demo's tools. Each one needs something only the user can give, so each one suspends:
// `question` (the builtin) asks which city, `book_table` asks for approval, `calendar` asks for a sign-in.
// Every real execution is recorded in KV under `exec:<tool>:…`, so /api/stats can prove a
// double-submitted answer ran the tool once.
import { defineTool, pending } from "toolnexus";
import type { Tool, ToolContext } from "toolnexus";

export interface ToolsEnv {
  RUNS: KVNamespace;
}

const FORECASTS: Record<string, string> = {
  chennai: "Chennai: 31 °C, humid, a light sea breeze in the evening.",
  berlin: "Berlin: 12 °C, grey skies, showers after 16:00.",
  lima: "Lima: 19 °C, overcast (la garúa), no rain to speak of.",
};

export const STATS_PREFIX = "exec:";

async function recordExecution(env: ToolsEnv, tool: string, ctx: ToolContext | undefined): Promise<void> {
  await env.RUNS.put(`${STATS_PREFIX}${tool}:${crypto.randomUUID()}`, ctx?.idempotencyKey ?? "");
}

/** A short confirmation code for a booking, derived from what was booked. */
function confirmation(key: string): string {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return `TNX-${(h >>> 0).toString(36).toUpperCase().padStart(6, "0").slice(0, 6)}`;
}

export function demoTools(env: ToolsEnv, origin: string): Tool[] {
  const weather = defineTool({
    name: "weather",
    description: "The current weather for a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: async (args, ctx) => {
      const city = String(args.city);
      await recordExecution(env, "weather", ctx);
      return FORECASTS[city.toLowerCase()] ?? `${city}: 22 °C and clear — a fine day for a walk.`;
    },
  });

  const bookTable = defineTool({
    name: "book_table",
    description: "Books a restaurant table. Asks the user to approve first.",
    inputSchema: {
      type: "object",
      properties: { restaurant: { type: "string" }, time: { type: "string" }, guests: { type: "integer" } },
      required: ["restaurant", "time", "guests"],
    },
    execute: async (args, ctx) => {
      const { restaurant, time, guests } = args as { restaurant: string; time: string; guests: number };
      if (!ctx?.answer) {
        return pending({
          kind: "approval",
          prompt: `Book a table for ${guests} at ${restaurant}, ${time} tonight?`,
          data: { restaurant, time, guests },
        });
      }
      await recordExecution(env, "book_table", ctx);
      return `Your table for ${guests} at ${restaurant} is booked for ${time}. Confirmation ${confirmation(`${restaurant}|${time}|${guests}`)}.`;
    },
  });

  const calendar = defineTool({
    name: "calendar",
    description: "Reads the user's calendar. Needs the user to sign in first.",
    inputSchema: { type: "object", properties: { day: { type: "string" } } },
    execute: async (_args, ctx) => {
      if (!ctx?.answer) {
        const id = crypto.randomUUID();
        return pending({
          id,
          kind: "authorization",
          prompt: "Sign in to your calendar (demo) so I can read it.",
          url: `${origin}/authorize?request=${id}`,
        });
      }
      if (!(await env.RUNS.get(`auth:${ctx.answer.id}`))) {
        return { output: "Calendar access was not granted — the sign-in page was not completed.", isError: true };
      }
      await recordExecution(env, "calendar", ctx);
      return "09:30 stand-up · 13:00 lunch with Priya · 16:00 dentist.";
    },
  });

  return [weather, bookTable, calendar];
}
