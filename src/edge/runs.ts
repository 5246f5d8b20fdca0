// What a POST does to a run: start one (the conversation's next exchange when it names one), resume one with
// its answers, stop the one streaming.
import { abortableSleep } from "../_internal/sleep";
import { RunConflictError } from "../errors";
import type { RunRequest } from "../protocol/requests";
import type { Answer } from "../types";
import { waiter } from "./held-waits";
import { serveExchange } from "./exchange";
import type { StoredHead } from "./exchange-log";
import { type Call, logOf, resumeOptionsOf, runOptionsOf } from "./options";
import { aboutConversation, aboutRun, checkOwner, notFound, scopedConversation } from "./run-owner";

/** How long a prompt sent right after its page stopped the conversation's exchange waits for it to let go. */
const STOPPING_WAIT_MS = 10_000;
const STOPPING_POLL_MS = 250;

export const json = (body: unknown, status?: number): Response =>
  Response.json(body, { status, headers: { "cache-control": "no-store" } });

/**
 * A new run: the conversation's next exchange when it names one (its history in, its outcome saved).
 * `stopped`: the page has just stopped the conversation's exchange, which may hold it a moment longer (a tool
 * or a model call slow to notice): a busy refusal is waited out for a while, not answered at once.
 */
export async function start(call: Call, request: Extract<RunRequest, { kind: "start" }>): Promise<Response> {
  const { client } = call.opts;
  const base = runOptionsOf(call.opts);
  const owner = call.owner ?? undefined; // remembered approvals are the owner's
  const { prompt } = request;
  const conversationId = await scopedConversation(request.conversationId, call.owner);
  const until = request.stopped ? Date.now() + STOPPING_WAIT_MS : 0;
  let release: (() => void) | undefined;
  try {
    for (;;) {
      const runId = `run-${crypto.randomUUID()}`;
      let busy = false;
      const res = await serveExchange({
        ...call,
        log: logOf(call, runId),
        before: undefined,
        events: (signal) => client.stream(prompt, { ...base, signal, runId, conversationId, owner }),
        refusal: (error) => {
          const payload = aboutConversation(error);
          busy = payload.reason === "busy";
          return payload;
        },
      });
      if (!busy || Date.now() >= until) return res;
      release ??= call.waits.take(waiter(call.owner, `conversation:${conversationId}`));
      await abortableSleep(STOPPING_POLL_MS, call.request.signal);
    }
  } finally {
    release?.();
  }
}

/** A resume's exchange: `answers` (none: a run whose answers were applied goes on), each with its token. */
export function resume(
  call: Call,
  runId: string,
  before: StoredHead | undefined,
  answers: Answer[],
  tokens: string[] | undefined,
): Promise<Response> {
  const { client } = call.opts;
  const base = resumeOptionsOf(call.opts);
  const owner = call.owner ?? undefined;
  const answer = answers.length === 1 ? answers[0]! : answers;
  return serveExchange({
    ...call,
    log: logOf(call, runId),
    before,
    events: (signal) => client.resumeStream(runId, answer, { ...base, signal, tokens, owner }),
    refusal: (error) => aboutRun(runId, error),
  });
}

/** Asks the run's running exchange to stop: at once in this isolate, through the storage in any other. */
export async function stop(call: Call, runId: string): Promise<Response> {
  const log = logOf(call, runId);
  const found = await checkOwner(call, log);
  if (!found) throw notFound(runId);
  const { exchange, running } = found.head;
  if (!running)
    throw new RunConflictError(runId, `toolnexus: run "${runId}" has no exchange streaming to stop`, "finished");
  try {
    // workerd refuses to abort a controller another request made (the stored stop below still reaches it)
    call.running.get(runId)?.abort();
  } catch {}
  await log.stop(exchange);
  return json({ status: "stopping" }, 202);
}
