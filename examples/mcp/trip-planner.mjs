// The demo's MCP server (`npm start` serves it on 127.0.0.1 beside the Worker): one tool, `plan_trip`, that
// cannot plan a trip before the traveller fills in a form. It is an MCP 2026-07-28 form elicitation with a
// signed requestState, so the demo's run halts into storage while the form is open, and any process may
// resume it later by retrying the call with the answers. Built on the MCP server SDK 2.4, web-standard APIs
// only (like test/mcp/servers/test-server.mjs), so it runs on Node, workerd or Deno.
// `createTripPlanner({ key })` returns `{ fetch, stats }`; GET /stats shows what the server saw
// (trips planned, forms declined or cancelled) so a test can check the side effect.
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const text = (t, isError = false) => ({ content: [{ type: "text", text: t }], ...(isError && { isError: true }) });

// what the form asks: every kind of field an elicitation may hold (integer, enum, boolean, string)
const details = z.object({
  travellers: z.number().int().min(1).max(8).meta({ title: "Travellers" }),
  nights: z.number().int().min(1).max(21).meta({ title: "Nights" }),
  pace: z.enum(["relaxed", "balanced", "packed"]).meta({ title: "Pace" }),
  hotel: z.boolean().optional().meta({ title: "Book a hotel too" }),
  notes: z.string().max(200).optional().meta({ title: "Anything else?", description: "Optional, for the planner" }),
});

/** A short itinerary code, derived from what was planned. */
function itinerary(key) {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return `TRIP-${(h >>> 0).toString(36).toUpperCase().padStart(6, "0").slice(0, 6)}`;
}

/** `key`: the requestState HMAC key (at least 32 bytes); a fresh random one by default. */
export function createTripPlanner({ key = `${crypto.randomUUID()}${crypto.randomUUID()}` } = {}) {
  const stats = { plans: [], declined: [], cancelled: [] };
  const codec = createRequestStateCodec({ key, ttlSeconds: 3600, bind: (ctx) => ctx.mcpReq.method });

  const handler = createMcpHandler(() => {
    const server = new McpServer(
      { name: "toolnexus-demo-trip-planner", version: "0.0.1" },
      { requestState: { verify: codec.verify } },
    );
    server.registerTool(
      "plan_trip",
      {
        description: "Plans a trip to a city. Asks the traveller for the details in a form first.",
        inputSchema: z.object({ destination: z.string().min(1).max(60) }),
      },
      async ({ destination }, ctx) => {
        const state = ctx.mcpReq.requestState();
        if (state === undefined) {
          return inputRequired({
            inputRequests: {
              trip: inputRequired.elicit({
                message: `A few details for your trip to ${destination}`,
                requestedSchema: details,
              }),
            },
            requestState: await codec.mint({ destination }, ctx),
          });
        }
        if (state.destination !== destination) return text("This form was filled in for another trip.", true);
        const view = inputResponse(ctx.mcpReq.inputResponses, "trip");
        if (view.kind === "elicit" && view.action !== "accept") {
          const outcome = view.action === "decline" ? "declined" : "cancelled";
          stats[outcome].push(destination);
          return text(`Trip to ${destination} not planned: the form was ${outcome}.`, true);
        }
        const trip = acceptedContent(ctx.mcpReq.inputResponses, "trip", details);
        if (!trip) return text("The trip details did not fit the form.", true);
        stats.plans.push({ destination, ...trip });
        const who = trip.travellers === 1 ? "1 traveller" : `${trip.travellers} travellers`;
        const hotel = trip.hotel ? ", hotel booked" : "";
        const code = itinerary(JSON.stringify({ destination, ...trip }));
        return text(
          `Planned ${trip.nights} nights in ${destination} for ${who}, ${trip.pace} pace${hotel}. Itinerary ${code}.`,
        );
      },
    );
    return server;
  });

  async function fetch(request) {
    if (new URL(request.url).pathname === "/stats") return Response.json(stats);
    return handler.fetch(request);
  }
  return { fetch, stats };
}
