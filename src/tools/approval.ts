// `needsApproval`: before a tool runs, its call suspends with `kind: "approval"`
// (`data: { tool, args, rememberable: true }`).
// The loop re-executes the tool only after an ok answer (a declined or expired one becomes
// `declined/expired: <prompt>` there, and the tool never runs), so an approval answer here means "go".
// The approval Request's id carries a prefix, so a re-execution knows — across a durable halt too — that
// the answer it carries approved the call rather than answered the tool's own suspension.
import { declineText } from "../answer";
import { pending } from "../pending";
import type { Answer, ToolResult } from "../types";
import type { NeedsApproval, Tool, ToolContext } from "./types";

const APPROVAL_ID = "approval-";

/** True for the Request `needsApproval` suspends with (not a tool's own `kind: "approval"` Request). */
export const isApprovalGate = (request: { id: string; kind: string }): boolean =>
  request.kind === "approval" && request.id.startsWith(APPROVAL_ID);

/**
 * The `data` of an ok answer to an approval Request that asks to be remembered (answerApproval's), else
 * undefined. Answers reach the loop checked by parseAnswer, so a `remember` there is one of the scopes.
 */
export const rememberedBy = (answer: Answer | undefined): Record<string, unknown> | undefined =>
  answer?.ok && answer.id.startsWith(APPROVAL_ID) && answer.data?.remember ? answer.data : undefined;

/** The prompt of the approval Request for the tool `name`, unless the tool words its own. */
export const approvalPrompt = (name: string): string => `Approve running the tool ${name}?`;

/**
 * The tool's own prompt for a call with `args` (`defineTool({ approvalPrompt })`), else the generic one — also
 * when a hand-written tool's `approvalPrompt` throws or gives no words.
 */
async function promptFor(name: string, args: Record<string, unknown>, own: Tool["approvalPrompt"]): Promise<string> {
  const words = await Promise.resolve()
    .then(() => own?.(args))
    .catch(() => undefined);
  return typeof words === "string" && words !== "" ? words : approvalPrompt(name);
}

/**
 * What to do before running the tool: `{ result }` ⇒ return it (the approval Request, or a refusal);
 * `{ ctx }` ⇒ run with this context (the approval answer removed, so the tool sees only its own answers).
 */
export async function approvalGate(
  name: string,
  needsApproval: NeedsApproval,
  args: Record<string, unknown>,
  ctx: ToolContext,
  prompt?: Tool["approvalPrompt"],
): Promise<{ result: ToolResult } | { ctx: ToolContext }> {
  const answer = ctx.answer;
  if (answer?.id.startsWith(APPROVAL_ID)) {
    // the loop never re-runs a declined approval (it reports it itself); said the same way if a host does
    if (!answer.ok)
      return { result: { output: declineText(await promptFor(name, args, prompt), answer), isError: true } };
    const { answer: _, ...rest } = ctx;
    return { ctx: rest };
  }
  // a re-execution with the answer to the tool's own suspension: it was approved (or needed none) before
  if (answer) return { ctx };
  const needed = needsApproval === true || (typeof needsApproval === "function" && (await needsApproval(args, ctx)));
  if (!needed) return { ctx };
  const request = {
    kind: "approval",
    id: `${APPROVAL_ID}${crypto.randomUUID()}`,
    prompt: await promptFor(name, args, prompt),
    // `rememberable`: an answerApproval(id, { remember }) to this request is remembered (a page offers "Always allow")
    data: { tool: name, args, rememberable: true },
  };
  return { result: pending(request) };
}
