// The demo's tools. Each one needs something only the user can give, so each one suspends:
// `question` (the builtin) asks which city, `book_table` and `book_taxi` ask for approval (both at once for
// "dinner and a taxi"), `calendar` asks for a sign-in; `flight_status` just takes its time.
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
const FLIGHT_LOOKUP_MS = 5000;

async function recordExecution(env: ToolsEnv, tool: string, ctx: ToolContext): Promise<void> {
  await env.RUNS.put(`${STATS_PREFIX}${tool}:${crypto.randomUUID()}`, ctx.idempotencyKey);
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
      if (!ctx.answer) {
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
      if (!ctx.answer) {
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

  const bookTaxi = defineTool({
    name: "book_taxi",
    description: "Books a taxi. Asks the user to approve first.",
    inputSchema: {
      type: "object",
      properties: { pickup: { type: "string" }, to: { type: "string" } },
      required: ["pickup", "to"],
    },
    execute: async (args, ctx) => {
      const { pickup, to } = args as { pickup: string; to: string };
      if (!ctx.answer) {
        return pending({ kind: "approval", prompt: `Book a taxi at ${pickup} to ${to}?`, data: { pickup, to } });
      }
      await recordExecution(env, "book_taxi", ctx);
      return `Your taxi to ${to} picks you up at ${pickup}.`;
    },
  });

  // slow on purpose: live flight data takes a few seconds (and the stream is open meanwhile)
  const flightStatus = defineTool({
    name: "flight_status",
    description: "The live status of a flight.",
    inputSchema: { type: "object", properties: { flight: { type: "string" } }, required: ["flight"] },
    execute: async (args, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, FLIGHT_LOOKUP_MS));
      await recordExecution(env, "flight_status", ctx);
      return `${String(args.flight)} is on time, boarding at gate 14 from 18:05.`;
    },
  });

  return [weather, bookTable, bookTaxi, calendar, flightStatus];
}
