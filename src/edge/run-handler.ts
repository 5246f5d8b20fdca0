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
import { formatEventId } from "../protocol/event-id";
import { type Call, logOf, type RunHandlerContext, type RunHandlerOptions } from "./options";
import { readQuery, readRunRequest } from "./request";
import { replay, restore } from "./restore";
import { json, resume, start, stop } from "./runs";
import { checkOwner, notFound, ownerOf } from "./run-owner";
import { settle } from "./serve";
import { errorPayload, errorResponse } from "./error-body";

export type { RunHandlerContext, RunHandlerOptions } from "./options";

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
  const shared = settle("createRunHandler", opts, 65_536);
  return async function handleRun(request, context) {
    try {
      const owner = await ownerOf(opts.owner, request);
      const call: Call = { ...shared, request, owner, waitUntil: context?.waitUntil?.bind(context) };
      if (request.method === "POST") return await post(call);
      if (request.method === "GET") return await get(call);
      const message = "toolnexus: the run endpoint takes GET ?runId= and POST";
      return errorResponse({ code: "method_not_allowed", message }, { allow: "GET, POST" });
    } catch (error) {
      // an unexpected error is not described (nor logged: its text is not ours to vouch for)
      return errorResponse(errorPayload(error));
    }
  };
}
