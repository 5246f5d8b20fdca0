// The demo Worker served by `npm start`: a chat page, and one run endpoint made by createRunHandler —
// runs halt into storage when a tool needs the user, and resume when the page posts the answer back.
// Beside the demo's own tools the model gets those of an MCP server (the trip planner `npm start` serves
// beside the Worker, at the MCP_URL var), connected with connectMcp for each run or resume.
//   POST /api/run { prompt } | { runId, answer | answers, token? }  → text/event-stream of the run
//   GET  /api/run?runId=…[&after=…]                                → the open requests, or the exchange that streams
//   POST /api/run { runId, stop: true }                            → stops the running exchange
//   GET  /api/stats                                                → how many times each tool really ran
// With an agent (`/?agent`, the page talks to /api/agent): a planner that delegates to a booker with `task`;
// the booker's table needs an approval, which reaches the page with `data.path` (the card says who asks) and
// is answered from there — after a reload too — resuming the booker where it stopped.
import { createRunHandler, createToolkit } from "toolnexus";
import { agent } from "toolnexus/agents";
import type { RunHandlerContext, RunStorage, Tool } from "toolnexus";
import type { McpConnection } from "toolnexus/mcp";
import { consentPage, grantedPage } from "./authorize-page";
import { demoClient, runStorage, usesRealModel } from "./config";
import type { ModelEnv, StorageEnv } from "./config";
import { chatPage } from "./page";
import { demoTools, STATS_PREFIX } from "./tools";

export interface DemoEnv extends ModelEnv, StorageEnv {
  /** The streamable HTTP endpoint of an MCP server whose tools the model gets too (`npm start` sets it). */
  MCP_URL?: string;
}

/** Where runs halt; the Deno server passes Deno KV, the Worker its Durable Object (or KV). */
export interface DemoRuns {
  storage: RunStorage;
  name: string;
}

export default {
  fetch: (request: Request, env: DemoEnv, ctx: RunHandlerContext): Promise<Response> =>
    demoFetch(request, env, runStorage(env), ctx),
};

type Handler = (request: Request, context?: RunHandlerContext) => Promise<Response>;

/**
 * The run endpoint, built once per isolate (not per request): its tools, and the MCP connection whose tools it
 * serves, are reused by every request, and a stop that lands on the isolate running the exchange ends it at
 * once. A trip planner that could not be reached is tried again by the next request.
 */
let endpoint: Promise<Handler> | undefined;
let agentEndpoint: Handler | undefined;

export async function demoFetch(
  request: Request,
  env: DemoEnv,
  runs: DemoRuns,
  ctx?: RunHandlerContext,
): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/api/run") {
    endpoint ??= buildEndpoint(env, runs, url.origin).catch((error: unknown) => {
      endpoint = undefined;
      throw error;
    });
    const handler = endpoint;
    return (await handler)(request, ctx); // ctx.waitUntil keeps an exchange running once its page left
  }
  if (url.pathname === "/api/agent") {
    agentEndpoint ??= plannerEndpoint(env, runs, url.origin);
    return agentEndpoint(request, ctx);
  }
  if (request.method === "GET" && url.pathname === "/") return page(env, runs.name, url.searchParams.has("agent"));
  if (url.pathname === "/authorize") return authorize(request, env, url);
  if (request.method === "GET" && url.pathname === "/api/stats") return Response.json(await stats(env));
  return problem(404, "not_found", `No route for ${request.method} ${url.pathname}`);
}

async function buildEndpoint(env: DemoEnv, runs: DemoRuns, origin: string): Promise<Handler> {
  const remote = await remoteTools(env);
  const tools: Tool[] = [...demoTools(env, origin), ...remote];
  const toolkit = await createToolkit({ tools, builtins: { webfetch: false, todowrite: false } });
  return createRunHandler({ client: demoClient(env, runs.storage), toolkit });
}

/** The agent endpoint: a planner whose team is a booker with the demo's `book_table` (it asks for an approval). */
function plannerEndpoint(env: DemoEnv, runs: DemoRuns, origin: string): Handler {
  const tools = demoTools(env, origin).filter((t) => t.name === "book_table");
  const booker = agent("booker", { does: "books restaurant tables", tools });
  const planner = agent("planner", { does: "plans an evening out", team: [booker] });
  return createRunHandler({ client: demoClient(env, runs.storage), agent: planner });
}

/**
 * The MCP server's tools, when there is one, each opening a connection of its own for each call: a Worker's
 * I/O belongs to the request that made it, so one request cannot use another's connection. A server that
 * cannot be reached leaves just the demo's own tools (the scripted model then says the trip planner is not
 * connected), and the next request looks for it again.
 */
async function remoteTools(env: DemoEnv): Promise<Tool[]> {
  const listing = await connectTools(env);
  if (!listing) return [];
  if (listing.status === "failed") endpoint = undefined;
  void listing.close().catch(() => {});
  return listing.tools.map((tool) => perCall(env, tool));
}

function perCall(env: DemoEnv, tool: Tool): Tool {
  const use = async <T>(run: (live: Tool) => Promise<T>): Promise<T> => {
    const mcp = await connectTools(env);
    try {
      const live = mcp?.tools.find((t) => t.name === tool.name);
      if (!live) throw new Error(`the trip planner cannot be reached (${mcp?.error?.message ?? "its tool is gone"})`);
      return await run(live);
    } finally {
      await mcp?.close().catch(() => {});
    }
  };
  const { onDecline } = tool;
  return {
    ...tool,
    execute: (args, ctx) => use((live) => live.execute(args, ctx)),
    ...(onDecline && {
      onDecline: (answer, args, ctx) => use((live) => (live.onDecline ?? onDecline)(answer, args, ctx)),
    }),
  };
}

/** A connection to the MCP server (the MCP client is imported only here: a Worker without MCP_URL never loads it). */
async function connectTools(env: DemoEnv): Promise<McpConnection | undefined> {
  if (!env.MCP_URL) return undefined;
  const { connectMcp } = await import("toolnexus/mcp");
  return connectMcp({ name: "trips", url: env.MCP_URL, timeoutMs: 10_000 });
}

const problem = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

function page(env: DemoEnv, storage: string, withAgent: boolean): Response {
  const nonce = crypto.randomUUID();
  const model = usesRealModel(env) ? String(env.MODEL) : "scripted (offline)";
  const html = chatPage({ nonce, model, storage, ...(withAgent ? { endpoint: "/api/agent" } : {}) });
  const csp = `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' data:`;
  return new Response(html, {
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": csp },
  });
}

/** The stand-in consent screen for the calendar's `authorization` Request (GET shows it, POST grants). */
async function authorize(request: Request, env: DemoEnv, url: URL): Promise<Response> {
  const html = (s: string) => new Response(s, { headers: { "content-type": "text/html; charset=utf-8" } });
  if (request.method === "GET") return html(consentPage(url.searchParams.get("request") ?? ""));
  const form = await request.formData().catch(() => undefined);
  const id = String(form?.get("request") ?? "");
  if (!id || id.length > 100) return problem(400, "bad_request", "The sign-in form lost its request id — start again.");
  await env.RUNS.put(`auth:${id}`, "granted", { expirationTtl: 3600 });
  return html(grantedPage());
}

async function stats(env: DemoEnv): Promise<Record<string, number>> {
  const counts: Record<string, number> = { weather: 0, book_table: 0, book_taxi: 0, calendar: 0, flight_status: 0 };
  let cursor: string | undefined;
  do {
    const page = await env.RUNS.list({ prefix: STATS_PREFIX, cursor });
    for (const { name } of page.keys) {
      const tool = name.slice(STATS_PREFIX.length).split(":")[0] ?? "";
      counts[tool] = (counts[tool] ?? 0) + 1;
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return counts;
}

export { RunStoreObject } from "toolnexus"; // the Durable Object behind durableObjectStorage({ namespace: env.RUN_STORE })
export { ExpiringRunStore } from "./expiring-store"; // EXPIRING_STORE: its alarm continues the runs past their deadline
