// Type tests, checked by `tsc` (npm run typecheck): what a user can lean on without `!` or a cast, and
// misuses that must not compile (each `@ts-expect-error` fails the check if the line below it compiles).
import { expectTypeOf } from "vitest";
import * as v from "valibot";
import * as z from "zod";
import {
  answerOutput,
  type createClient,
  defineTool,
  jsonSchema,
  relayTool,
  type Answer,
  type JSONSchema,
  type PendingRequest,
  type RunResult,
  type StreamEvent,
  type ToolContext,
} from "toolnexus";

declare const result: RunResult;
declare const client: ReturnType<typeof createClient>;

// RunResult is a union on status: the fields of each status appear once it is narrowed
if (result.status === "pending") {
  expectTypeOf(result.runId).toEqualTypeOf<string>();
  expectTypeOf(result.pending).toEqualTypeOf<PendingRequest>();
  expectTypeOf(result.requests).toEqualTypeOf<PendingRequest[]>();
  expectTypeOf(result.token).toEqualTypeOf<string | undefined>();
}
if (result.status === "incomplete") expectTypeOf(result.limit).toEqualTypeOf<"maxTurns" | "timeout" | "aborted">();
// @ts-expect-error — runId exists only on a pending result
result.runId;
// @ts-expect-error — limit exists only on an incomplete result
result.limit;

// execute always gets its ctx; the answer's data is typed
defineTool({
  name: "t",
  description: "d",
  execute: (args, ctx) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
    expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
    expectTypeOf(ctx.idempotencyKey).toEqualTypeOf<string>();
    expectTypeOf(ctx.answer).toEqualTypeOf<Answer | undefined>();
    expectTypeOf(ctx.answer?.data?.output).toEqualTypeOf<string | undefined>();
    return "";
  },
});

// arguments are inferred from valibot, zod and jsonSchema<T>()
defineTool({
  name: "v",
  description: "d",
  inputSchema: v.object({ city: v.string(), days: v.optional(v.number(), 1) }),
  execute: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>(),
});
defineTool({
  name: "z",
  description: "d",
  inputSchema: z.object({ city: z.string() }),
  execute: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string }>(),
});
defineTool({
  name: "j",
  description: "d",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  needsApproval: (args) => expectTypeOf(args).toEqualTypeOf<{ city: string }>() === undefined,
  execute: ({ city }) => city.toUpperCase(),
});
defineTool({
  name: "bad",
  description: "d",
  inputSchema: v.object({ city: v.string() }),
  // @ts-expect-error — `days` is not an argument of this schema
  execute: ({ days }) => days,
});
// @ts-expect-error — needsApproval is a boolean or a predicate
defineTool({ name: "n", description: "d", needsApproval: "yes", execute: () => "" });
relayTool("r", "d", v.object({ q: v.string() }), { needsApproval: (args) => args.q.length > 3 });

// output: typed from the schema, present on a done result without `!`
async function typedOutput() {
  const done = await client.run("weather?", { output: v.object({ city: v.string(), tempC: v.number() }) });
  if (done.status === "done") expectTypeOf(done.output).toEqualTypeOf<{ city: string; tempC: number }>();
  const viaJson = await client.run("x", { output: jsonSchema<{ n: number }>({ type: "object" }) });
  if (viaJson.status === "done") expectTypeOf(viaJson.output.n).toEqualTypeOf<number>();
  for await (const e of client.stream("x", { output: z.object({ ok: z.boolean() }) }))
    if (e.type === "done" && e.result.status === "done") expectTypeOf(e.result.output.ok).toEqualTypeOf<boolean>();
  const plain = await client.run("x");
  if (plain.status === "done") expectTypeOf(plain.output).toEqualTypeOf<unknown>();
  expectTypeOf<StreamEvent>().toMatchTypeOf<{ type: string }>();
  // a resume: typed from `output` when given again; else from the type named for the stored schema
  const answer = answerOutput("q", "Goa");
  const resumed = await client.resume("run-1", answer, { output: v.object({ city: v.string() }) });
  if (resumed.status === "done") expectTypeOf(resumed.output).toEqualTypeOf<{ city: string }>();
  const named = await client.resume<{ city: string }>("run-1", answer);
  if (named.status === "done") expectTypeOf(named.output).toEqualTypeOf<{ city: string } | undefined>();
  for await (const e of client.resumeStream<{ city: string }>("run-1", answer))
    if (e.type === "done" && e.result.status === "done")
      expectTypeOf(e.result.output).toEqualTypeOf<{ city: string } | undefined>();
  const untyped = await client.resume("run-1", answer);
  if (untyped.status === "done") expectTypeOf(untyped.output).toEqualTypeOf<unknown>();
  // @ts-expect-error — an answer output must be a string
  answerOutput("id", 42);
}
void typedOutput;

// declines that say why: a message on answerDeclined and on the Answer; onDecline gets the typed arguments
import("toolnexus").then(({ answerDeclined }) => {
  const declined = answerDeclined("q", "declined", "too pricey");
  expectTypeOf(declined).toEqualTypeOf<Answer>();
  expectTypeOf(declined.message).toEqualTypeOf<string | undefined>();
  answerDeclined("q", undefined, "no reason given, a message all the same");
  // @ts-expect-error — a message is a string
  answerDeclined("q", "declined", 42);
  // @ts-expect-error — the reason is one of the three
  answerDeclined("q", "nope", "m");
});
defineTool({
  name: "od",
  description: "d",
  inputSchema: v.object({ day: v.string() }),
  execute: ({ day }) => day,
  onDecline: (answer, args, ctx) => {
    expectTypeOf(answer).toEqualTypeOf<Answer>();
    expectTypeOf(args).toEqualTypeOf<{ day: string }>();
    expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
    return `not booked for ${args.day}: ${answer.message ?? answer.reason}`;
  },
});
defineTool({
  name: "od-bad",
  description: "d",
  inputSchema: v.object({ day: v.string() }),
  execute: () => "",
  // @ts-expect-error — `hour` is not an argument of this schema
  onDecline: (_answer, { hour }) => hour,
});

// a token per answer: `tokens` in the answers' order beside `token` for one
async function tokensPerAnswer(a1: Answer, a2: Answer) {
  await client.resume("run-1", [a1, a2], { tokens: ["t1", "t2"] });
  await client.resume("run-1", a1, { token: "t1" });
  // @ts-expect-error — tokens is a list of token strings
  await client.resume("run-1", [a1, a2], { tokens: "t1" });
}
void tokensPerAnswer;
// Request kinds: a switch on `kind` narrows to each built-in kind's data; a host's own kinds are named
// (`PendingRequest<"my_kind">`), and `PendingRequest<string>` takes any Request, the JSON shape.
declare const request: PendingRequest;
switch (request.kind) {
  case "input":
    expectTypeOf(request.data?.schema).toEqualTypeOf<JSONSchema | undefined>();
    break;
  case "question":
    expectTypeOf(request.data?.questions?.[0]?.options).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(request.data?.options).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(request.data?.multiple).toEqualTypeOf<boolean | undefined>();
    break;
  case "approval":
    expectTypeOf(request.data?.tool).toEqualTypeOf<string | undefined>();
    expectTypeOf(request.data?.args).toEqualTypeOf<Record<string, unknown> | undefined>();
    break;
  case "authorization":
    expectTypeOf(request.url).toEqualTypeOf<string>();
    break;
  case "tool_call":
    expectTypeOf(request.data.calls[0]!.name).toEqualTypeOf<string>();
    break;
  default:
    expectTypeOf(request).toBeNever(); // every built-in kind is handled above
}
declare const mine: PendingRequest<"my_kind">;
if (mine.kind === "my_kind") expectTypeOf(mine.data).toEqualTypeOf<Record<string, unknown> | undefined>();
if (mine.kind === "approval") expectTypeOf(mine.data?.tool).toEqualTypeOf<string | undefined>();
const typed = (r: PendingRequest) => r;
// @ts-expect-error — an authorization Request always has its url
typed({ id: "q", kind: "authorization", prompt: "Sign in" });
// @ts-expect-error — a kind the type does not name
typed({ id: "q", kind: "my_kind", prompt: "?" });
declare const json: { id: string; kind: string; prompt: string; data?: Record<string, unknown> };
expectTypeOf(json).toMatchTypeOf<PendingRequest<string>>(); // the JSON shape of any Request
expectTypeOf<PendingRequest>().toMatchTypeOf<PendingRequest<string>>(); // a typed Request goes wherever any does
// remembered approvals: answerApproval's scopes, and the owner a run and its resume are for
import("toolnexus").then(({ answerApproval }) => {
  expectTypeOf(answerApproval("q")).toEqualTypeOf<Answer>();
  expectTypeOf(answerApproval("q", { remember: "conversation", sameArgs: true })).toEqualTypeOf<Answer>();
  answerApproval("q", { remember: "owner" });
  // @ts-expect-error — a scope that does not exist
  answerApproval("q", { remember: "forever" });
  // @ts-expect-error — sameArgs is a boolean
  answerApproval("q", { remember: "owner", sameArgs: "yes" });
});
async function owned(answer: Answer) {
  await client.run("x", { conversationId: "c1", owner: "user-1" });
  await client.resume("run-1", answer, { owner: "user-1" });
  // @ts-expect-error — an owner is a string
  await client.run("x", { owner: 7 });
}
void owned;
