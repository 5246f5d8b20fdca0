// One MCP tool call, and its suspensions. A call that needs input returns `pending(request, { state })`;
// the loop asks (inline, through waitFor) or halts the run (durably), and re-executes the tool with
// `ctx.answer` and `ctx.state`, which carry it on:
//   2026-07-28 `input_required`  one Request per inputRequest, in order; once each has its response the call is
//                                retried with `inputResponses` and the `requestState` verbatim — by any
//                                process, on a fresh connection: this is the durable path
//   -32042 URL required          one authorization Request per URL; then the call starts over
//   session-era push             the server pushed `elicitation/create` into the open call: only this
//                                process can answer, so it works inline; a resume elsewhere is refused
import { canonical } from "../_internal/json";
import { pending, type Answer, type ToolContext, type ToolResult } from "../index";
import { elicitationOf, requestFor, responseFor, type ElicitParams, type RequestSpec } from "./elicitation";
import { isPageMainThread, paramHeaders } from "./headers";
import type { Link, Settled } from "./link";
import { reasonOf } from "./reason";
import { loadSdk } from "./sdk";
import { failure, toToolResult, type McpCallResult } from "./result";
import {
  readState,
  STATE_VERSION,
  type InputRequiredState,
  type McpState,
  type Unsaved,
  type UrlRequiredState,
} from "./state";

export interface McpToolDef {
  name: string;
  inputSchema: unknown;
}

/** Rounds in a row a server may answer `input_required` with nothing to ask before the call gives up. */
const MAX_EMPTY_ROUNDS = 8;
const URL_REQUIRED = -32042;
const INVALID_PARAMS = -32602;

type Args = Record<string, unknown>;
type Ctx = (ToolContext & { state?: unknown }) | undefined;

const newId = (): string => `mcp-${crypto.randomUUID()}`;

/** Suspends with `request`, keeping `state` for the re-execution (never shown to a page or a stream). */
function suspend(spec: RequestSpec, state: Unsaved, id = newId()): ToolResult {
  return pending({ ...spec, id }, { state: { ...state, request: id } });
}

const common = (link: Link, def: McpToolDef, args: Args) => ({
  v: STATE_VERSION,
  server: { endpoint: link.endpoint, era: link.era },
  call: { name: def.name, arguments: args },
  idFloor: link.idFloor(),
});

function callOptions(link: Link, def: McpToolDef, args: Args, ctx: Ctx) {
  const headers = link.era === "modern" && isPageMainThread() ? paramHeaders(def.inputSchema, args) : undefined;
  return {
    allowInputRequired: true,
    resetTimeoutOnProgress: true,
    ...(link.timeoutMs !== undefined && { timeout: link.timeoutMs }),
    ...(ctx?.signal && { signal: ctx.signal }),
    ...(headers && Object.keys(headers).length > 0 && { headers }),
  };
}

/** Runs the tool: a first call, or the continuation of a suspended one. */
export async function executeMcp(link: Link, def: McpToolDef, args: Args, ctx: Ctx): Promise<ToolResult> {
  if (link.closed) return closed(link, def);
  const answer = ctx?.answer;
  if (ctx?.state === undefined || !answer)
    return link.era === "legacy" ? openCall(link, def, args, ctx) : roundTrip(link, def, args, ctx, {}, 0);
  const read = readState(ctx.state);
  if (!read.ok) return refused(link, def, `its saved state is not valid (${read.problem})`);
  const problem = mismatch(link, def, args, read.state, answer);
  if (problem) return refused(link, def, problem);
  const state = read.state;
  if (state.mode === "pushed") return answerPush(link, def, state, answer);
  if (state.mode === "url_required") return afterUrl(link, def, state, answer, ctx);
  return afterInput(link, def, state, answer, ctx);
}

/** A call after `close()` (nothing sent), or one `close()` cut off (`during`): an error result, never a hang. */
const closed = (link: Link, def: McpToolDef, during = false): ToolResult =>
  failure(
    link.name,
    during
      ? `${link.name}: ${def.name} was cut off: the MCP connection was closed while the call was open (the server may have run it) — connect again with connectMcp`
      : `${link.name}: ${def.name} was not called: the MCP connection is closed — connect again with connectMcp`,
  );

const refused = (link: Link, def: McpToolDef, why: string): ToolResult =>
  failure(
    link.name,
    `${link.name}: the suspended call of ${def.name} cannot go on: ${why} — nothing was sent to the server; call the tool again to start over`,
  );

function mismatch(link: Link, def: McpToolDef, args: Args, state: McpState, answer: Answer): string | undefined {
  if (state.request !== answer.id) return `the answer is for request "${answer.id}", the state for "${state.request}"`;
  if (state.call.name !== def.name) return `the state is for the tool "${state.call.name}"`;
  if (state.server.endpoint !== link.endpoint)
    return `the state was made by the server at ${state.server.endpoint}, this connection is to ${link.endpoint}`;
  if (state.server.era !== link.era)
    return `the state was made in the ${state.server.era} protocol era, this connection speaks the ${link.era} one`;
  if (canonical(state.call.arguments) !== canonical(args))
    return "the arguments differ from those of the suspended call";
  return undefined;
}

/** One `tools/call` on a 2026-07-28 (or plain session-era) server; `input_required` becomes a suspension. */
async function roundTrip(
  link: Link,
  def: McpToolDef,
  args: Args,
  ctx: Ctx,
  extra: { inputResponses?: Args; requestState?: string },
  empty: number,
): Promise<ToolResult> {
  let result: unknown;
  try {
    result = await link.client.callTool(
      { name: def.name, arguments: args, ...extra },
      callOptions(link, def, args, ctx),
    );
  } catch (error) {
    return thrown(link, def, args, error, extra.requestState !== undefined);
  }
  const { isInputRequiredResult } = await loadSdk();
  if (!isInputRequiredResult(result)) return toToolResult(link.name, result as McpCallResult);
  const r = result as { inputRequests?: Record<string, unknown>; requestState?: string };
  const inputRequests = r.inputRequests ?? {};
  const keys = Object.keys(inputRequests);
  if (keys.length === 0) {
    if (empty >= MAX_EMPTY_ROUNDS)
      return failure(link.name, `${link.name}: ${def.name} kept answering input_required with nothing to ask`);
    return roundTrip(
      link,
      def,
      args,
      ctx,
      r.requestState === undefined ? {} : { requestState: r.requestState },
      empty + 1,
    );
  }
  const state: Unsaved<InputRequiredState> = {
    ...common(link, def, args),
    mode: "input_required",
    inputRequests,
    ...(r.requestState !== undefined && { requestState: r.requestState }),
    keys,
    index: 0,
    responses: {},
  };
  return askInput(link, def, state);
}

/** The Request for the inputRequest at `state.index`. */
function askInput(link: Link, def: McpToolDef, state: Unsaved<InputRequiredState>): ToolResult {
  const params = elicitationOf(state.inputRequests[state.keys[state.index]!]);
  if (!params) {
    const method = (state.inputRequests[state.keys[state.index]!] as { method?: unknown } | null)?.method;
    return failure(
      link.name,
      `${link.name}: ${def.name} asks the client for ${String(method)}, which toolnexus/mcp does not provide (only elicitation)`,
    );
  }
  return suspend(requestFor(params), { ...state, idFloor: Math.max(state.idFloor, link.idFloor()) });
}

async function afterInput(
  link: Link,
  def: McpToolDef,
  state: InputRequiredState,
  answer: Answer,
  ctx: Ctx,
): Promise<ToolResult> {
  const key = state.keys[state.index];
  if (key === undefined) return refused(link, def, "its saved state points past its inputRequests");
  const params = elicitationOf(state.inputRequests[key]);
  const responses = { ...state.responses, [key]: responseFor(params, answer) };
  if (state.index + 1 < state.keys.length) {
    const { request: _, ...rest } = state;
    return askInput(link, def, { ...rest, index: state.index + 1, responses });
  }
  link.raiseIds(state.idFloor);
  const extra = {
    inputResponses: responses,
    ...(state.requestState !== undefined && { requestState: state.requestState }),
  };
  return roundTrip(link, def, state.call.arguments, ctx, extra, 0);
}

async function afterUrl(
  link: Link,
  def: McpToolDef,
  state: UrlRequiredState,
  answer: Answer,
  ctx: Ctx,
): Promise<ToolResult> {
  if (!answer.ok)
    return failure(
      link.name,
      `${link.name}: ${def.name} needs the authorization at ${state.urls[state.index]?.url ?? "its URL"}, which was ${answer.reason ?? "declined"}`,
    );
  if (state.index + 1 < state.urls.length) {
    const { request: _, ...rest } = state;
    const next = state.urls[state.index + 1]!;
    return suspend({ kind: "authorization", prompt: next.message, url: next.url }, { ...rest, index: state.index + 1 });
  }
  link.raiseIds(state.idFloor);
  return link.era === "legacy"
    ? openCall(link, def, state.call.arguments, ctx)
    : roundTrip(link, def, state.call.arguments, ctx, {}, 0);
}

/** A throw from the client: -32042 suspends for its URLs; a refused requestState says so; the rest is data. */
function thrown(link: Link, def: McpToolDef, args: Args, error: unknown, withState: boolean): ToolResult {
  const e = error as {
    code?: unknown;
    message?: unknown;
    data?: { elicitations?: unknown };
    elicitations?: unknown;
  } | null;
  const code = typeof e?.code === "number" ? e.code : undefined;
  if (link.closed) return closed(link, def, true);
  const message = reasonOf(error, link.secrets, link.timeoutMs);
  if (code === URL_REQUIRED) {
    let list: ElicitParams[] = [];
    if (Array.isArray(e?.data?.elicitations)) list = e.data.elicitations;
    if (Array.isArray(e?.elicitations)) list = e.elicitations;
    const urls = list
      .filter((u) => typeof u?.url === "string")
      .map((u) => ({
        url: u.url as string,
        message: typeof u.message === "string" ? u.message : "Authorization required to continue",
      }));
    if (urls.length > 0)
      return suspend(
        { kind: "authorization", prompt: urls[0]!.message, url: urls[0]!.url },
        { ...common(link, def, args), mode: "url_required", urls, index: 0 },
      );
  }
  if (withState && code === INVALID_PARAMS) {
    return failure(
      link.name,
      `${link.name}: the server refused the saved state of ${def.name} (${message}) — it expired or was altered; call the tool again to start over`,
      code,
    );
  }
  return failure(link.name, `${link.name}: ${def.name} failed: ${message}`, code);
}

// --- session-era servers: elicitations pushed into the open call --------------------------------------------

function openCall(link: Link, def: McpToolDef, args: Args, ctx: Ctx): Promise<ToolResult> {
  const done: Promise<Settled> = link.client
    .callTool({ name: def.name, arguments: args }, callOptions(link, def, args, ctx))
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  return awaitPush(link, def, args, done);
}

/** Waits for the open call to end or to push an elicitation, whichever comes first. */
async function awaitPush(link: Link, def: McpToolDef, args: Args, done: Promise<Settled>): Promise<ToolResult> {
  const next = link.nextPush();
  const first = await Promise.race([done, next.push.then((push) => ({ push }))]);
  if (!("push" in first)) {
    next.cancel();
    return "error" in first
      ? thrown(link, def, args, first.error, false)
      : toToolResult(link.name, first.result as McpCallResult);
  }
  const id = newId();
  link.open.set(id, { done, push: first.push });
  return suspend(requestFor(first.push.params), { ...common(link, def, args), mode: "pushed" }, id);
}

function answerPush(link: Link, def: McpToolDef, state: McpState, answer: Answer): Promise<ToolResult> | ToolResult {
  const open = link.open.get(state.request);
  if (!open) {
    return failure(
      link.name,
      `${link.name}: ${def.name} was waiting on an elicitation that a session-era MCP server pushed into its open call; only the process that made the call can answer it (inline, with waitFor) and this one has no such call — the answer was not delivered`,
    );
  }
  link.open.delete(state.request);
  open.push.respond(responseFor(open.push.params, answer));
  return awaitPush(link, def, state.call.arguments, open.done);
}
