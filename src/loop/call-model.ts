// One model call of a run: the request body shaped (the run's params merged, the body transform applied),
// posted with retries, read as a Turn (streamed or not), and reported to metrics, hooks and telemetry.
import { postWithRetry } from "../wire/post";
import { isPlainObject, typeName } from "../_internal/json";
import { isToolnexusError, StreamError } from "../errors";
import { badOption } from "../tools/tool";
import { providerError } from "../wire/read";
import { boundedStream } from "../wire/stream-guard";
import { refusedStrict, strictable } from "../wire/strictable";
import type { StreamEvent, Usage } from "../types";
import type { Turn } from "../wire/types";
import { addUsage, type LoopState, type ResolvedOptions, type RunContext } from "./context";
import { pump } from "./pump";
import { redact, secretsOf } from "../_internal/redact";

const RESERVED = ["messages", "tools", "stream"];

/** Applies `requestParams` (caller wins, reserved keys refused) and then `bodyTransform`. */
export function shapeBody(
  ctx: Pick<RunContext, "opts" | "warn">,
  body: Record<string, unknown>,
): Record<string, unknown> {
  for (const [key, value] of Object.entries(ctx.opts.requestParams ?? {})) {
    if (RESERVED.includes(key))
      ctx.warn(`[toolnexus] requestParams key "${key}" is not allowed — ignored (use bodyTransform)`);
    else if (key !== "__proto__") body[key] = value;
  }
  return ctx.opts.bodyTransform?.(body) || body;
}

/**
 * The options one run sends with: a run's own `requestParams` shallow-merged over the client's (the run's
 * win; the same keys are refused when the body is shaped). Anything but a plain object is a ConfigError.
 */
export function withRunParams(opts: ResolvedOptions, params: unknown): ResolvedOptions {
  if (params === undefined) return opts;
  if (!isPlainObject(params)) throw badOption("run options", "requestParams", "an object", params, typeName(params));
  return { ...opts, requestParams: { ...opts.requestParams, ...params } };
}

const headersOf = (ctx: RunContext): Record<string, string> => ({
  ...ctx.wire.headers(ctx.apiKey),
  ...ctx.opts.headers,
});

/**
 * A provider may echo a credential back inside a reply (an error body, an error object in a 200, a stream
 * error event): the API key, the value of every header the caller configured (whatever its name — an
 * `X-Auth-Key` is as secret as an `Authorization`) and credential-looking protocol headers are masked in
 * any SDK error's message and body. Resolves to the same error.
 */
export async function scrub(ctx: RunContext, error: unknown): Promise<unknown> {
  if (!isToolnexusError(error)) return error;
  const secrets = [...secretsOf(headersOf(ctx)), ...Object.values(ctx.opts.headers ?? {})];
  if (ctx.apiKey) secrets.push(ctx.apiKey);
  try {
    for (const key of ["message", "stack", "body"] as const) {
      const text = (error as unknown as Record<string, unknown>)[key];
      if (typeof text === "string")
        Object.defineProperty(error, key, {
          value: redact(text, secrets),
          configurable: true,
          writable: true,
        });
    }
  } catch {
    // a frozen error keeps its message; the wires already mask key-shaped text
  }
  return error;
}

/** The `llm` metric of one model call that started at `started` (ms): ok with its usage, or an error. */
export function recordLlm(ctx: RunContext, model: string, started: number, usage?: Usage): void {
  ctx.metrics.record({
    event: "llm",
    model,
    status: usage ? "ok" : "error",
    ms: Date.now() - started,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
  });
}

/** Sends a JSON body to the provider with retries; the response is ok (non-2xx throws LlmHttpError). */
export function send(ctx: RunContext, url: string, body: Record<string, unknown>): Promise<Response> {
  const { opts } = ctx;
  return postWithRetry(
    url,
    { headers: headersOf(ctx), body: JSON.stringify(body) },
    // the retry options (retries, retryBaseMs, retryableStatuses, onError) are the client's own
    { ...opts, fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)), signal: ctx.signal },
  );
}

/**
 * A streaming request answered with a JSON or HTML page (a proxy's error page, a server that ignored
 * `stream: true`) is named for what it is, instead of reading as a stream that carried no events.
 * A JSON error object is the provider's error. A reply with no content type is read as a stream.
 */
async function refuseNonStream(res: Response): Promise<void> {
  const type = res.headers.get("content-type") ?? "";
  if (!/json|html|xml/i.test(type)) return;
  const text = await res.text().catch(() => "");
  let error: unknown;
  try {
    if (/json/i.test(type)) error = (JSON.parse(text) as { error?: unknown } | null)?.error;
  } catch {}
  if (error != null) throw providerError(error);
  throw new StreamError(
    `toolnexus: the provider's reply is not an event stream (content-type: ${type.slice(0, 80)}) — check baseUrl and style, and that the server streams`,
  );
}

/**
 * A non-streamed reply's JSON. Anything else — a proxy's HTML sign-in page, an empty or cut-off body — is a
 * StreamError saying what came instead: its content type and the redacted start of its body.
 */
export async function replyJson(res: Response): Promise<unknown> {
  if (typeof res.text !== "function") return res.json(); // a reply made in process, already an object
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {}
  const type = (res.headers.get("content-type") ?? "none").slice(0, 80);
  const start = redact(text.slice(0, 60)).replace(/\s+/g, " ").trim();
  const body = start ? `starts ${JSON.stringify(start)}${text.length > 60 ? "…" : ""}` : "is empty";
  throw new StreamError(
    `toolnexus: the provider's reply is not JSON (content-type: ${type}; the body ${body}) — check baseUrl and style, and any proxy or sign-in page in front of the provider`,
  );
}

/** A call's request body, and the same without strict mode when it asks for it. */
interface Bodies {
  body: Record<string, unknown>;
  lax?: () => Record<string, unknown>;
}

/**
 * The request body of turn `turn`, after the `beforeLLM` hook changed the messages or tools it wanted to, and
 * the body again without strict mode (undefined: it was not asked for) for when the provider refuses it.
 */
async function requestBodies(ctx: RunContext, state: LoopState, turn: number): Promise<Bodies> {
  const { messages, tools, model, system } = state;
  const hooked = await ctx.opts.hooks?.beforeLLM?.({ messages, tools, model, turn });
  if (hooked?.messages) state.messages = hooked.messages.slice();
  if (hooked?.tools) state.tools = hooked.tools.slice();
  const output = ctx.output?.json;
  const shaped = { model, system, messages: state.messages, tools: state.tools, stream: ctx.stream, output };
  const body = (strict: boolean) => shapeBody(ctx, ctx.wire.body({ ...shaped, strict }));
  const strict = !state.strictRefused && strictable(output);
  return { body: body(strict), lax: strict ? () => body(false) : undefined };
}

/**
 * Posts `body`; a strict-mode refusal of the output schema is sent once more as `lax()`, and the run's later
 * calls ask without strict mode (wire/strictable.ts).
 */
async function post(ctx: RunContext, state: LoopState, url: string, bodies: Bodies): Promise<Response> {
  try {
    return await send(ctx, url, bodies.body);
  } catch (error) {
    if (!bodies.lax || !refusedStrict(error)) throw error;
    state.strictRefused = true;
    return send(ctx, url, bodies.lax());
  }
}

/**
 * One model call for turn `state.turns`: hooks, body shaping, retries, stream or JSON reading, usage and
 * the `llm` metric. Yields text, reasoning and tool-input deltas as they arrive; returns the assembled turn.
 */
export async function* callModel(ctx: RunContext, state: LoopState): AsyncGenerator<StreamEvent, Turn> {
  const { opts, wire } = ctx;
  const turnIndex = state.turns - 1;
  const bodies = await requestBodies(ctx, state, turnIndex);
  const started = Date.now();
  const trace = (outcome: { error: unknown } | { turn: Turn; response: unknown }) =>
    ctx.trace?.model({ model: state.model, started, messages: state.messages, system: state.system, ...outcome });
  let turn: Turn;
  let response: unknown;
  try {
    const res = await post(ctx, state, wire.url(opts.baseUrl, state.model, ctx.stream), bodies);
    if (ctx.stream && res.body) {
      await refuseNonStream(res);
      // what has streamed so far is the run's text, so an aborted or timed-out run keeps it
      let streamed = "";
      // a stop or a deadline ends the read at the next chunk, also when the transport ignores the signal
      const bounded = boundedStream(res.body, {
        maxLineBytes: opts.maxStreamLineBytes,
        idleMs: opts.streamIdleTimeoutMs,
        signal: ctx.signal,
      });
      turn = yield* pump<StreamEvent, Turn>((emit) =>
        wire.readStream(bounded, (delta) => {
          if (delta.type === "text") state.text = streamed += delta.delta;
          emit(delta);
        }),
      );
      response = { streamed: true, usage: turn.usage };
    } else {
      response = await replyJson(res);
      turn = wire.parse(response);
      // a stream answered with one JSON reply: its reasoning and text each arrive as one event
      if (ctx.stream && turn.reasoning) yield { type: "reasoning", delta: turn.reasoning };
      if (ctx.stream && turn.text) yield { type: "text", delta: turn.text };
    }
  } catch (error) {
    recordLlm(ctx, state.model, started);
    trace({ error });
    throw await scrub(ctx, error);
  }
  recordLlm(ctx, state.model, started, turn.usage);
  trace({ turn, response });
  addUsage(state.usage, turn.usage);
  await opts.hooks?.afterLLM?.({ response, model: state.model, turn: turnIndex });
  return turn;
}
