// The edge endpoint of a chat widget in one line, for any fetch-style server (a Worker's fetch,
// Deno.serve, Bun.serve, Node through a Request/Response adapter):
//   POST { prompt, conversationId? }            → the new run's events (text/event-stream)
//   POST { runId, answer | answers, token? | tokens? } → the resumed run's events (a token per answer)
//   POST { runId, stop: true }                  → 202: the running exchange stops at its next boundary
//   POST { runId, restore: true, after?, token? } → what a reloaded page shows again (events, see restore.ts)
//   GET  ?runId=…                               → { status, requests, token? } — what a reloaded page asks
//   GET  ?runId=…&after=<e>:<n> (or Last-Event-ID) → exchange e's events after the n-th, followed to its end
// The bodies are the protocol's (protocol/requests.ts). With `owner`, a run another owner started is answered
// exactly as a run that does not exist. A request it cannot use (bad JSON, wrong content type, a body over
// maxBodyBytes, bad fields) is refused with a 4xx `{ error: { code, message } }` before the client is called:
// nothing is stored, nothing runs.
import type { Client } from "../client";
import { ConfigError, shown } from "../errors";
import { formatEventId } from "../protocol/event-id";
import { errorPayload, errorResponse } from "./error-body";
import { pageSafeEvent } from "./event-stream";
import { type Call, logOf, type RunHandlerContext, type RunHandlerOptions } from "./options";
import { readQuery, readRunRequest } from "./request";
import { replay, restore } from "./restore";
import { json, resume, start, stop } from "./runs";
import { checkOwner, notFound, ownerOf } from "./run-owner";
import { heldWaits } from "./held-waits";

export type { RunHandlerContext, RunHandlerOptions } from "./options";

/** What the client keeps a halted run for, when it says nothing: 7 days. */
const DEFAULT_TTL_SECONDS = 604_800;

async function post(call: Call): Promise<Response> {
  const request = await readRunRequest(call.request, call.max);
  switch (request.kind) {
    case "start":
      return start(call, request);
    case "stop":
      return stop(call, request.runId);
    case "restore":
      return restore(call, request);
    case "resume":
      return resume(
        call,
        request.runId,
        await checkOwner(call, logOf(call, request.runId)),
        request.answers,
        request.tokens,
      );
  }
}

async function get(call: Call): Promise<Response> {
  const { runId, after } = readQuery(call.request);
  const log = logOf(call, runId);
  const found = await checkOwner(call, log);
  if (after) {
    const { exchange, n } = after();
    if (!found || exchange > found.head.exchange) throw notFound(runId);
    return replay(call, log, exchange, n);
  }
  // a run whose deadline passed is continued first, so a reloaded page finds it moved on
  const inspection = await call.opts.client.inspect(runId, { toolkit: call.opts.toolkit });
  if (!inspection) throw notFound(runId);
  const { status, requests, token, tokens } = inspection;
  const streaming = found?.head.running ? formatEventId(found.head.exchange, 0) : undefined;
  return json({ status, requests, token, tokens, streaming });
}

const mustBe = (field: string, ok: boolean, what: string, value: unknown) => {
  if (!ok) throw new ConfigError(field, `toolnexus: createRunHandler ${field} must be ${what}, got ${shown(value)}`);
};

/** The handler's settings, checked: what every request it serves shares. */
function settle(opts: RunHandlerOptions): Omit<Call, "request" | "owner"> {
  const client = opts?.client as Partial<Client> | undefined;
  const ok = typeof client?.stream === "function" && typeof client.resumeStream === "function";
  mustBe("client", ok && !!client.storage, "a client made by createClient", client);
  const max = opts.maxBodyBytes ?? 65_536;
  mustBe("maxBodyBytes", Number.isInteger(max) && max > 0, "a whole number > 0", max);
  const ttlSeconds = opts.ttlSeconds ?? Math.ceil(client!.pendingTtlSeconds ?? DEFAULT_TTL_SECONDS);
  mustBe("ttlSeconds", Number.isInteger(ttlSeconds) && ttlSeconds >= 0, "a whole number ≥ 0", ttlSeconds);
  const agent = opts.agent;
  mustBe("agent", agent === undefined || typeof agent?.runOptions === "function", "an agent from agent()", agent);
  mustBe("agent", !(agent && opts.toolkit), "given alone (an agent brings its own tools), not with toolkit", agent);
  const owner = opts.owner;
  mustBe("owner", owner === undefined || typeof owner === "function", "a function (request) => string | null", owner);
  const maxWaits = opts.maxHeldWaits ?? 8;
  mustBe("maxHeldWaits", Number.isInteger(maxWaits) && maxWaits >= 0, "a whole number ≥ 0", maxWaits);
  return {
    opts,
    max,
    waits: heldWaits(maxWaits),
    storage: client!.storage!,
    ttl: ttlSeconds ? { ttlSeconds } : {},
    running: new Map(),
    // what a page may see of an event: reasoning only when forwarded, a done result without its transcript
    visible: (event) => (event.type === "reasoning" && opts.reasoning !== true ? undefined : pageSafeEvent(event)),
  };
}

/**
 * A `(request, context?) => Promise<Response>` serving a chat widget's runs with `client` and `toolkit`.
 * Answers are checked with parseAnswer and resume tokens by the client (its `resumeSecret`); events go out
 * page-safe, each with its id, and are kept in the client's storage so a page can replay and follow them.
 * On Workers, pass the fetch handler's context (`handler(request, ctx)`): its `waitUntil` keeps an exchange
 * going after its page went away.
 */
/* @__NO_SIDE_EFFECTS__ */
export function createRunHandler(
  opts: RunHandlerOptions,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  const shared = settle(opts);
  return async function handleRun(request, context) {
    try {
      const call: Call = {
        ...shared,
        request,
        owner: await ownerOf(opts.owner, request),
        waitUntil: context?.waitUntil?.bind(context),
      };
      if (request.method === "POST") return await post(call);
      if (request.method === "GET") return await get(call);
      return errorResponse(
        { code: "method_not_allowed", message: "toolnexus: the run endpoint takes GET ?runId= and POST" },
        { allow: "GET, POST" },
      );
    } catch (error) {
      // an unexpected error is not described (nor logged: its text is not ours to vouch for)
      return errorResponse(errorPayload(error));
    }
  };
}
