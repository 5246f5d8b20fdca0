// The demo Worker served by `npm start`: a chat page, and one run endpoint made by createRunHandler —
// runs halt into storage when a tool needs the user, and resume when the page posts the answer back.
// Beside the demo's own tools the model gets those of an MCP server (the trip planner `npm start` serves
// beside the Worker, at the MCP_URL var), connected with connectMcp for each run or resume.
//   POST /api/run { prompt } | { runId, answer | answers, token? }  → text/event-stream of the run
//   GET  /api/run?runId=…                                          → the open requests, after a reload
//   GET  /api/stats                                                → how many times each tool really ran
import { createRunHandler, createToolkit } from "toolnexus";
import type { RunStorage, Tool } from "toolnexus";
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
  fetch: (request: Request, env: DemoEnv): Promise<Response> => demoFetch(request, env, runStorage(env)),
};

export async function demoFetch(request: Request, env: DemoEnv, runs: DemoRuns): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/api/run") {
    // a reloaded page's GET only reads the stored run: no MCP connection for it
    const mcp = request.method === "POST" ? await connectTools(env) : undefined;
    const tools: Tool[] = [...demoTools(env, url.origin), ...(mcp?.tools ?? [])];
    const toolkit = await createToolkit({ tools, builtins: { webfetch: false, todowrite: false } });
    const response = await createRunHandler({ client: demoClient(env, runs.storage), toolkit })(request);
    return mcp ? closeAfter(response, mcp) : response;
  }
  if (request.method === "GET" && url.pathname === "/") return page(env, runs.name);
  if (url.pathname === "/authorize") return authorize(request, env, url);
  if (request.method === "GET" && url.pathname === "/api/stats") return Response.json(await stats(env));
  return problem(404, "not_found", `No route for ${request.method} ${url.pathname}`);
}

/**
 * The MCP server's tools, when there is one. A server that cannot be reached leaves just the demo's own tools
 * (connectMcp reports it as status "failed"; the scripted model then says the trip planner is not connected).
 * The MCP client is imported only here, so a Worker started without MCP_URL never loads it.
 */
async function connectTools(env: DemoEnv): Promise<McpConnection | undefined> {
  if (!env.MCP_URL) return undefined;
  const { connectMcp } = await import("toolnexus/mcp");
  return connectMcp({ name: "trips", url: env.MCP_URL, timeoutMs: 10_000 });
}

/** The response as it is, with the MCP connection closed once its body has been read (or abandoned). */
function closeAfter(response: Response, mcp: McpConnection): Response {
  if (!response.body) {
    void mcp.close().catch(() => {});
    return response;
  }
  const { readable, writable } = new TransformStream();
  response.body
    .pipeTo(writable)
    .catch(() => {})
    .finally(() => mcp.close().catch(() => {}));
  const { status, statusText, headers } = response;
  return new Response(readable, { status, statusText, headers });
}

const problem = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

function page(env: DemoEnv, storage: string): Response {
  const nonce = crypto.randomUUID();
  const html = chatPage({ nonce, model: usesRealModel(env) ? String(env.MODEL) : "scripted (offline)", storage });
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
