// The demo Worker served by `npm start`: a chat page, and an API whose runs halt into storage when a
// tool needs the user and resume when the page posts the answer back with the runId.
//   POST /api/chat   { chatId?, message }        → text/event-stream of the run's events
//   POST /api/answer { chatId?, runId, answer }  → text/event-stream of the rest of the run
//   GET  /api/stats                              → how many times each tool really executed
import { createToolkit, eventStreamResponse, parseAnswer } from "toolnexus";
import type { RunResult, StreamEvent } from "toolnexus";
import { consentPage, grantedPage } from "./authorize-page";
import { demoClient, usesRealModel } from "./config";
import type { ModelEnv } from "./config";
import { BadRequest, cleanAnswer, errorResponse, readJson, runStorage, storageName } from "./http";
import type { StorageEnv } from "./http";
import { chatPage } from "./page";
import { demoTools, STATS_PREFIX } from "./tools";

export interface DemoEnv extends ModelEnv, StorageEnv {}

const HISTORY_MESSAGES = 40;

export default {
  async fetch(request: Request, env: DemoEnv): Promise<Response> {
    const url = new URL(request.url);
    try {
      if (request.method === "GET" && url.pathname === "/") return page(env);
      if (url.pathname === "/authorize") return await authorize(request, env, url);
      if (request.method === "GET" && url.pathname === "/api/stats") return Response.json(await stats(env));
      if (request.method === "POST" && url.pathname === "/api/chat") return await chat(request, env, url.origin);
      if (request.method === "POST" && url.pathname === "/api/answer") return await answer(request, env, url.origin);
      return Response.json(
        { error: { code: "not_found", message: `No route for ${request.method} ${url.pathname}` } },
        { status: 404 },
      );
    } catch (error) {
      return errorResponse(error);
    }
  },
};

function page(env: DemoEnv): Response {
  const nonce = crypto.randomUUID();
  const html = chatPage({
    nonce,
    model: usesRealModel(env) ? String(env.MODEL) : "scripted (offline)",
    storage: storageName(env),
  });
  const csp = `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' data:`;
  return new Response(html, {
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": csp },
  });
}

async function chat(request: Request, env: DemoEnv, origin: string): Promise<Response> {
  const body = await readJson(request);
  const message = body.message;
  if (typeof message !== "string" || !message.trim() || message.length > 4000) {
    throw new BadRequest("message must be a non-empty string of at most 4000 characters");
  }
  const chatId = chatIdOf(body.chatId);
  const client = demoClient(env, runStorage(env));
  const toolkit = await createToolkit({
    tools: demoTools(env, origin),
    builtins: { webfetch: false, todowrite: false },
  });
  const history = await loadHistory(env, chatId);
  return streamed(client.stream(message.trim(), { toolkit, history }), (result) => saveHistory(env, chatId, result));
}

async function answer(request: Request, env: DemoEnv, origin: string): Promise<Response> {
  const body = await readJson(request);
  const runId = body.runId;
  if (typeof runId !== "string" || !runId || runId.length > 200)
    throw new BadRequest("runId must be the runId of the open question");
  const reply = cleanAnswer(parseAnswer(body.answer));
  const chatId = chatIdOf(body.chatId);
  const client = demoClient(env, runStorage(env));
  const toolkit = await createToolkit({
    tools: demoTools(env, origin),
    builtins: { webfetch: false, todowrite: false },
  });
  return streamed(client.resumeStream(runId, reply, { toolkit }), (result) => saveHistory(env, chatId, result));
}

/**
 * Streams a run's events. The first event is awaited before the response starts, so a run that
 * cannot start (unknown runId, an answer that was already used) gets a proper status code.
 */
async function streamed(
  events: AsyncIterable<StreamEvent>,
  onDone: (result: RunResult) => Promise<void>,
): Promise<Response> {
  const it = events[Symbol.asyncIterator]();
  const first = await it.next();
  async function* rest(): AsyncGenerator<StreamEvent> {
    try {
      for (let step = first; !step.done; step = await it.next()) {
        if (step.value.type === "done") await onDone(step.value.result);
        yield step.value;
      }
    } finally {
      await it.return?.();
    }
  }
  return eventStreamResponse(rest());
}

/** The stand-in consent screen for the calendar's `authorization` Request (GET shows it, POST grants). */
async function authorize(request: Request, env: DemoEnv, url: URL): Promise<Response> {
  const html = (s: string) => new Response(s, { headers: { "content-type": "text/html; charset=utf-8" } });
  if (request.method === "GET") return html(consentPage(url.searchParams.get("request") ?? ""));
  const form = await request.formData().catch(() => undefined);
  const id = String(form?.get("request") ?? "");
  if (!id || id.length > 100) throw new BadRequest("the sign-in form lost its request id — start again from the chat");
  await env.RUNS.put(`auth:${id}`, "granted", { expirationTtl: 3600 });
  return html(grantedPage());
}

async function stats(env: DemoEnv): Promise<Record<string, number>> {
  const counts: Record<string, number> = { weather: 0, book_table: 0, calendar: 0 };
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

// --- conversation memory: the finished transcript of the last run, per chat ------------------------

function chatIdOf(value: unknown): string | undefined {
  return typeof value === "string" && /^[\w-]{1,64}$/.test(value) ? value : undefined;
}

async function loadHistory(env: DemoEnv, chatId: string | undefined): Promise<unknown[]> {
  if (!chatId) return [];
  const saved = await env.RUNS.get<unknown[]>(`chat:${chatId}`, "json").catch(() => null);
  return Array.isArray(saved) ? saved : [];
}

async function saveHistory(env: DemoEnv, chatId: string | undefined, result: RunResult): Promise<void> {
  if (!chatId || result.status !== "done") return;
  const messages = result.messages as { role?: string; content?: unknown }[];
  const userTurn = (m: (typeof messages)[number] | undefined) => m?.role === "user" && typeof m.content === "string";
  // keep the system message and whole exchanges: cut only where a user turn starts
  let from = Math.max(0, messages.length - HISTORY_MESSAGES);
  while (from < messages.length && !userTurn(messages[from])) from++;
  const head = messages[0]?.role === "system" && from > 0 ? [messages[0]] : [];
  await env.RUNS.put(`chat:${chatId}`, JSON.stringify([...head, ...messages.slice(from)]), { expirationTtl: 86_400 });
}
export { RunStoreObject } from "toolnexus"; // the Durable Object behind durableObjectStorage({ namespace: env.RUN_STORE })
