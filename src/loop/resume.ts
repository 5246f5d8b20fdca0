// client.resume: continue a durably halted run with answers to its open requests — exactly once, on every
// path: everything that can be checked is checked before the record is claimed; the claim is a lease the
// owner renews at every checkpoint and gives back when it goes away; the calls of a turn are marked as
// started before they run, so a call whose outcome a crash left unknown is reported, never run twice.
import { type ConflictReason, ConfigError, InvalidAnswerError, RunConflictError } from "../errors";
import { drive } from "../loop";
import { answerDigest, keptOutcome, openGroups, type StoredCall, type RunRecord } from "../run-state/record";
import type { Loaded, RecordOwner } from "../run-state/store";
import type { Answer, PendingRequest, RunResult, StreamEvent, ToolResult } from "../types";
import { toolSchema } from "../tools/schema/input-schema";
import { toolResult, type LoopState, type RunContext } from "./context";
import { runTool, type CallOutcome } from "./execute-tools";
import { endPending, pendingResult, storedCall } from "./halt";
import { leaseHeld, mustRead } from "./inspect";
import { dueAnswers, nowOf } from "./deadline";
import { appendTurn, isRelay, matchAnswer, parsedAnswer, reruns, resolveRequest, settled } from "./suspension";
import { readRelayAnswer } from "../tools/relay-answer";

/** The RunConflictError for run `runId`: `toolnexus: run "<runId>" <what>`. */
const conflict = (runId: string, what: string, reason: ConflictReason) =>
  new RunConflictError(runId, `toolnexus: run "${runId}" ${what}`, reason);

function stateOf(ctx: RunContext, record: RunRecord): LoopState {
  return {
    runId: record.runId,
    model: record.model,
    system: record.system,
    messages: record.messages.slice(),
    tools: ctx.wire.declare(ctx.toolkit),
    toolCalls: record.toolCalls.slice(),
    turns: record.turns,
    usage: { ...record.usage },
    text: record.text,
    conversationId: record.conversationId,
    startedAt: Date.now(),
  };
}

export interface Resumption {
  state: LoopState;
  /** Returned again as it is: the kept outcome of an identical answer, or the run as a replayed answer left it. */
  finished?: RunResult;
  events?: AsyncGenerator<StreamEvent, RunResult>;
  /** A resumed run (not a new one): its conversation, if any, is settled once it finishes. */
  resumed?: true;
}

/** One answer matched to the open request it answers, with the calls that request covers. */
interface Applied {
  request: PendingRequest;
  calls: StoredCall[];
  answer: Answer;
}

/**
 * The answers, parsed and matched to open requests of the stored turn, each checked as far as it can be before
 * anything runs: a relay answer's payload is read, and the tools it re-runs must be in this resume's toolkit
 * (or the answer could only be consumed, never used). Throws; changes nothing.
 */
function matchAll(ctx: RunContext, record: RunRecord, answers: readonly (Answer | undefined)[]): Applied[] {
  const groups = openGroups(record.calls);
  const seen = new Set<string>();
  const applied = answers.map((given, i): Applied => {
    if (!given)
      throw new InvalidAnswerError(
        `answers[${i}]`,
        `toolnexus: answers[${i}] is missing — pass an Answer built with answerOutput(id, output)`,
      );
    if (seen.has(given.id))
      throw new InvalidAnswerError(
        `answers[${i}].id`,
        `toolnexus: request "${given.id}" is answered twice in one resume`,
      );
    seen.add(given.id);
    const { request, calls } = groups.find((g) => g.request.id === given.id) ?? groups[0]!;
    const answer = matchAnswer(request, given, nowOf(ctx)); // another request's id: AnswerMismatchError
    if (isRelay(request)) readRelayAnswer(answer, calls);
    const missing = calls.find((c) => reruns(request, answer, c.state) && !ctx.toolkit?.get(c.name));
    if (missing)
      throw new ConfigError(
        "toolkit",
        `toolnexus: run "${record.runId}" waits on tool "${missing.name}", missing from this resume's toolkit — pass the run's toolkit`,
      );
    return { request, calls, answer };
  });
  // the open requests these answers leave whose deadline passed are answered by it, in the same claim
  for (const answer of dueAnswers(ctx, record.calls)) {
    if (seen.has(answer.id)) continue;
    const { request, calls } = groups.find((g) => g.request.id === answer.id)!;
    applied.push({ request, calls, answer });
  }
  return applied;
}

/**
 * Checks everything that can be checked before anything changes — the run, its record, the answers, the
 * relay payloads, the toolkit, a resume token, the signal — each a typed error that leaves the stored run
 * as it was; then claims the record with a lease.
 */
export async function prepareResume(
  ctx: RunContext,
  runId: string,
  answers: readonly unknown[],
  guard?: ResumeGuard,
  loaded?: Loaded,
): Promise<Resumption> {
  const reading = loaded ? Promise.resolve(loaded) : mustRead(ctx, runId);
  // validated first: a hostile answer (nested 10k deep, NaN, a class instance) is an InvalidAnswerError, thrown
  // after the record's own errors; the answers' digest is computed while the record is read
  let parsed: (Answer | undefined)[] | undefined;
  let invalid: unknown;
  try {
    parsed = answers.map(parsedAnswer);
  } catch (error) {
    invalid = error;
  }
  const digesting = parsed && digestOf(parsed);
  const found = await reading;
  const { record } = found;
  // a resume given no `output` keeps the schema the run was started with (a JSON Schema of an object)
  const run =
    ctx.output === undefined && record.output !== undefined
      ? { ...ctx, output: toolSchema(record.output, "output") }
      : ctx;
  run.trace?.resumed(record.trace);
  const state = stateOf(run, record);
  if (!parsed || !digesting) throw invalid;
  const digest = await digesting;
  const replay =
    (record.status === "done" && (record.answered?.digest === digest || record.applied?.includes(digest))) ||
    (record.status === "suspended" && record.applied?.includes(digest) === true);
  // a resume token's binding to this run and to a request it answers (client/resume-token/verify.ts)
  guard?.(
    record,
    parsed.map((a) => a?.id ?? ""),
    replay,
  );
  if (replay)
    return { state, finished: record.status === "done" ? keptOutcome(record) : pendingResult(state, record, run) };
  // a run whose deadline passed needs no answer: the claim declines its due requests (semantics 8)
  const count = answers.length || (record.status === "suspended" ? dueAnswers(run, record.calls).length : 0);
  refuseTaken(record, digest, count, nowOf(run));
  const applied = record.status === "suspended" ? matchAll(run, record, parsed) : [];
  run.signal?.throwIfAborted();
  const claimed = {
    ...record,
    calls: record.calls.map((c) => startedFor(c, applied)),
    answered: applied[0] ? { requestId: applied[0].answer.id, digest } : record.answered,
  };
  const owner = await run.records.claim(found, claimed, digest, answers.length > 0 ? "answered" : "claimed");
  return { state, resumed: true, events: resumeRun(run, state, owner, applied) };
}

/** A run finished, owned by another resume, or answered with other answers than these is refused here. */
function refuseTaken(record: RunRecord, digest: string, count: number, now: number): void {
  const { runId, status } = record;
  if (status === "done") throw conflict(runId, "has already finished", "finished");
  if (status === "claimed" && leaseHeld(record, now))
    throw conflict(runId, "is being resumed by another caller", "claimed");
  const same = record.answered?.digest === digest || record.lease?.digest === digest || count === 0;
  if (status !== "suspended" && !same)
    throw conflict(runId, "was already answered; only the same answer can retry it", "answered");
  if (status === "suspended" && count === 0) {
    throw new InvalidAnswerError(
      "answers",
      `toolnexus: run "${runId}" waits for an answer — pass one built with answerOutput(id, output)`,
    );
  }
}

/** Checks a resume token against the stored run and the answers' request ids; `replay`: an identical answer, already applied. */
export type ResumeGuard = (record: RunRecord, answerIds: string[], replay: boolean) => void;

/**
 * The SHA-256 of what a resume applies, so an identical replay is recognised without storing the answers:
 * one answer's canonical JSON (as every record since the first release has it), else the list sorted by id.
 */
const digestOf = (answers: readonly (Answer | undefined)[]): Promise<string> =>
  answerDigest(
    answers.length === 1 ? answers[0] : [...answers].sort((a, b) => ((a?.id ?? "") < (b?.id ?? "") ? -1 : 1)),
  );

/** A call being answered (and re-run) is marked as started by the claim itself. */
function startedFor(call: StoredCall, applied: Applied[]): StoredCall {
  const a = applied.find((x) => x.calls.includes(call));
  if (!a || !reruns(a.request, a.answer, call.state)) return call;
  return { ...call, started: true, answer: a.answer };
}

/**
 * The resumed run: the answers applied (each answered tool re-run once with `ctx.answer`), then, once every
 * call of the stored turn has its result, the model continues; while any request is still open the run
 * halts again under the same runId with the rest.
 */
async function* resumeRun(
  ctx: RunContext,
  state: LoopState,
  owner: RecordOwner,
  applied: Applied[],
): AsyncGenerator<StreamEvent, RunResult> {
  // when the run goes away before it settles — a stream cancelled, a `break`, a thrown hook, a failed model
  // call or write — the owner gives the last checkpoint back, so the same answer retries from there and no
  // finished call runs again
  try {
    const finished: StoredCall[] = [];
    for (const a of applied) {
      const results = await resolveRequest(
        ctx,
        state,
        a.request,
        a.calls.map((c) => ({ ...c, call: c })),
        a.answer,
      );
      // a re-run call's outcome: its result, or — an approved call that suspends for its own reason — its next request
      a.calls.forEach((c, i) => finished.push(storedCall({ call: c, args: c.args, ...settled(results[i]!) })));
    }
    const answered = owner.record.calls.map((c) => finished.find((f) => f.id === c.id) ?? c);
    const calls = await settleUnknown(ctx, state, answered);
    const record: RunRecord = { ...owner.record, calls };
    const open = openGroups(calls).length > 0;
    if (applied.length > 0 || calls.some((c, i) => c !== answered[i]))
      await (open ? owner.halt(record) : owner.checkpoint(record));
    if (ctx.stream) for (const c of finished) if (c.result) yield toolResult({ call: c, result: c.result });
    if (open) return yield* endPending(ctx, state, record);
    const outcomes = calls.map((c) => ({ call: c, args: c.args, result: c.result! }));
    appendTurn(ctx, state, { message: record.assistant }, outcomes);
    const result = yield* drive(ctx, state, owner);
    if (result.status !== "pending") await owner.complete(result);
    return result;
  } finally {
    await owner.giveBack();
  }
}

/**
 * A call that started but whose outcome is unknown (the process died, a hook threw after the tool ran) is
 * never run again: the model is told it was interrupted — unless its tool declares `recovery: "rerun"`, which
 * runs it again with the same answer and the same `idempotencyKey`.
 */
function settleUnknown(ctx: RunContext, state: LoopState, calls: StoredCall[]): Promise<StoredCall[]> {
  return Promise.all(
    calls.map(async (c) => {
      if (!c.started || c.result) return c;
      if (ctx.toolkit?.get(c.name)?.recovery === "rerun") {
        const again: CallOutcome = await runTool(ctx, state, c, c.args, c.answer, c.state);
        // a re-run that asks (an agent's task call whose child asks) leaves its request open: the run halts on it
        return storedCall(again.request ? again : { call: c, args: c.args, result: again.result });
      }
      const result: ToolResult = { output: `interrupted: ${c.name} did not finish`, isError: true };
      return storedCall({ call: c, args: c.args, result });
    }),
  );
}
