// The client's run verbs — run, stream, ask, resume, resumeStream — as named functions with the overloads
// that type `output` from the schema; one implementation each over the session (session.ts) and the plans
// of runs.ts.
import type { ResolvedOptions } from "../loop/context";
import type { Answer, RunResult, StreamEvent } from "../types";
import type { ToolInputSchema } from "../tools/types";
import type { conversationStore } from "./conversations";
import { checkRunId, freshPlan, resumePlans } from "./runs";
import { collect, session, type SessionEnv } from "./session";
import type { AskOptions, Prompt, ResumeOptions, RunOptions, Typed, WithOutput } from "./types";

/** One answer or several, in any order. */
type Answers = Answer | readonly Answer[];

/**
 * The run verbs over the session: a new run (with `conversationId`, the conversation's next exchange — its history
 * in, its outcome saved) and the resume of a halted one (its answers and token checked by runs.ts). Their type is
 * inferred (client.ts imports this file): createClient checks them against Client's overloads.
 */
export function runVerbs(
  env: SessionEnv,
  opts: ResolvedOptions,
  conversations: ReturnType<typeof conversationStore>,
  now: () => number,
) {
  const resumed = resumePlans(opts, now);
  async function* started(
    prompt: Prompt,
    runOptions: RunOptions,
    stream: boolean,
  ): AsyncGenerator<StreamEvent, RunResult> {
    checkRunId(runOptions.runId);
    const id = runOptions.conversationId;
    const events = (options: RunOptions) => session(env, options, stream, freshPlan(opts, prompt, options, id));
    if (id === undefined) return yield* events(runOptions);
    return yield* conversations.exchange(id, (history) => events({ ...runOptions, history }));
  }
  function run<S extends ToolInputSchema>(prompt: Prompt, runOptions: WithOutput<RunOptions, S>): Promise<Typed<S>>;
  function run(prompt: Prompt, runOptions?: RunOptions): Promise<RunResult>;
  function run(prompt: Prompt, runOptions: RunOptions = {}): Promise<RunResult> {
    return collect(started(prompt, runOptions, false));
  }
  function stream<S extends ToolInputSchema>(
    prompt: Prompt,
    runOptions: WithOutput<RunOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  function stream(prompt: Prompt, runOptions?: RunOptions): AsyncIterable<StreamEvent>;
  function stream(prompt: Prompt, runOptions: RunOptions = {}): AsyncIterable<StreamEvent> {
    return started(prompt, runOptions, true);
  }
  function ask(prompt: Prompt, askOptions: AskOptions = {}): Promise<RunResult> {
    return run(prompt, askOptions.id === undefined ? askOptions : { ...askOptions, conversationId: askOptions.id });
  }
  function resume<S extends ToolInputSchema>(
    runId: string,
    answer: Answers,
    options: WithOutput<ResumeOptions, S>,
  ): Promise<Typed<S>>;
  function resume<O = unknown>(runId: string, answer: Answers, options?: ResumeOptions): Promise<RunResult<O>>;
  function resume(runId: string, answer: Answers, options: ResumeOptions = {}): Promise<RunResult> {
    return collect(session(env, options, false, resumed(runId, answer, options)));
  }
  function resumeStream<S extends ToolInputSchema>(
    runId: string,
    answer: Answers,
    options: WithOutput<ResumeOptions, S>,
  ): AsyncIterable<StreamEvent<Typed<S>>>;
  function resumeStream<O = unknown>(
    runId: string,
    answer: Answers,
    options?: ResumeOptions,
  ): AsyncIterable<StreamEvent<RunResult<O>>>;
  function resumeStream(runId: string, answer: Answers, options: ResumeOptions = {}): AsyncIterable<StreamEvent> {
    return session(env, options, true, resumed(runId, answer, options));
  }
  return { run, stream, ask, resume, resumeStream };
}
