// Deadlines on Requests (semantics 8): stamped when a call suspends — the tool's own `expiresAt`, an
// approval's `approvalTimeoutSeconds`, the client's `answerTimeoutSeconds`, the earliest winning — and read
// back when a run is due: which of its open Requests passed their deadline, and the refusal each gets
// (`answerDeclined(id, "expired")`, or "cancelled" for a tool with `onExpire: "cancel"`).
import { isExpired } from "../pending";
import { openGroups, type StoredCall } from "../run-state/record";
import { isApprovalGate } from "../tools/approval";
import type { Answer, PendingRequest } from "../types";
import type { Tool } from "../tools/types";
import type { RunContext } from "./context";

/** The latest time a Date can hold; a timeout past it sets no deadline. */
const MAX_TIME = 8.64e15;

/** The client's clock (`createClient({ clock })`), else the system's. */
export const nowOf = (ctx: Pick<RunContext, "opts">): number => ctx.opts.clock?.now() ?? Date.now();

/** `request` with the earliest of its own `expiresAt` and the timeouts that apply to it (as is when none does). */
export function withDeadline(ctx: RunContext, tool: Tool | undefined, request: PendingRequest): PendingRequest {
  const timeouts = [ctx.opts.answerTimeoutSeconds];
  if (isApprovalGate(request)) timeouts.push(tool?.approvalTimeoutSeconds);
  const now = nowOf(ctx);
  let at = request.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(request.expiresAt);
  for (const seconds of timeouts) if (seconds !== undefined) at = Math.min(at, now + seconds * 1000);
  if (!(at < MAX_TIME) || (request.expiresAt !== undefined && at === Date.parse(request.expiresAt))) return request;
  return { ...request, expiresAt: new Date(Math.ceil(at)).toISOString() };
}

/** The open Requests of a stored turn whose deadline passed, with the refusal each is answered with. */
export function dueAnswers(ctx: RunContext, calls: readonly StoredCall[]): Answer[] {
  const now = nowOf(ctx);
  return openGroups(calls)
    .filter((g) => isExpired(g.request, now))
    .map((g) => expiryAnswer(ctx, g.request, g.calls[0]!.name));
}

/** The refusal a passed deadline answers `request` with: reason `expired`, or `cancelled` for `onExpire: "cancel"`. */
export function expiryAnswer(ctx: RunContext, request: PendingRequest, toolName: string): Answer {
  const cancel = ctx.toolkit?.get(toolName)?.onExpire === "cancel";
  return { id: request.id, ok: false, reason: cancel ? "cancelled" : "expired" };
}
