// Who may touch a run at the edge. With the handler's `owner`, a run is stamped with its starter's owner id (in
// the head of its exchange log, exchange-log.ts), and every request about a run — a resume, an inspect, a stop, a
// replay — from any other owner is answered with the very bytes an unknown run gets, so a stranger cannot even
// learn that it exists. No answer names a run the caller did not send: a busy conversation is "busy", not "busy
// with run …". Conversations are kept per owner: one owner's conversation id never reaches another's.
import { type ConflictReason, ConfigError, RunNotFoundError, type ToolnexusError } from "../errors";
import { ownedConversation } from "../client/approvals-admin";
import { errorPayload, type ErrorPayload } from "./error-body";
import type { ExchangeLog, StoredHead } from "./exchange-log";

/** The handler's `owner` option: who is asking. */
type OwnerOf = (request: Request) => string | null | Promise<string | null>;

const MAX_OWNER = 1024;

/** The caller's owner id: `null` when the handler has no `owner` or it answered null (an anonymous caller). */
export async function ownerOf(owner: OwnerOf | undefined, request: Request): Promise<string | null> {
  if (!owner) return null;
  const id = await owner(request);
  if (id === null || (typeof id === "string" && id !== "" && id.length <= MAX_OWNER)) return id;
  throw new ConfigError(
    "owner",
    `toolnexus: createRunHandler owner(request) must return a string or null, got ${typeof id}`,
  );
}

/** What an unknown run — and a run of another owner — is answered with: the client's own not-found error. */
export const notFound = (runId: string): ToolnexusError => new RunNotFoundError(runId);

/** What a request about a run knows: the handler's `owner` option, and the caller it named. */
interface Asking {
  opts: { owner?: unknown };
  owner: string | null;
}

/**
 * The run's head, once the caller may touch the run; a run of another owner (or one never stamped, when the
 * handler has `owner`) throws exactly what an unknown run does.
 */
export async function checkOwner({ opts, owner }: Asking, log: ExchangeLog): Promise<StoredHead | undefined> {
  const found = await log.head();
  // without `owner`, a run stamped by an owner is still not the anonymous caller's
  if ((opts.owner || found) && found?.head.owner !== owner) throw notFound(log.runId);
  return found;
}

const OWNED = "owner-";
const ESCAPED = "anon:";

/**
 * The conversation id as stored: scoped to the caller's owner, so owners never share one. An anonymous
 * caller's id is kept as sent, unless it is spelled like a stored id of another namespace (`owner-…`, or
 * `anon:…`), which is escaped under `anon:`: the two namespaces are disjoint, and no spelling an anonymous
 * caller sends reaches an owner's conversation.
 */
export async function scopedConversation(id: string | undefined, caller: string | null): Promise<string | undefined> {
  if (id === undefined) return id;
  if (caller !== null) return ownedConversation(id, caller);
  return id.startsWith(OWNED) || id.startsWith(ESCAPED) ? `${ESCAPED}${id}` : id;
}

/** A failure about run `runId` as the caller is told it: an unknown run always in the same words. */
export function aboutRun(runId: string, error: unknown): ErrorPayload {
  const payload = errorPayload(error);
  return payload.code === "run_not_found" ? errorPayload(notFound(runId)) : payload;
}

/** What a new run's conflict on its conversation is told as: by its reason, never naming a run. */
const CONVERSATION_CONFLICT: Partial<Record<ConflictReason, string>> = {
  waiting: "toolnexus: the conversation waits on an open question — answer it, or start a new one",
  busy: "toolnexus: the conversation is busy — send again once its exchange ends",
};

/** A new run's refusal as the caller is told it: a conflict on the conversation names no run. */
export function aboutConversation(error: unknown): ErrorPayload {
  const payload = errorPayload(error);
  if (payload.code !== "run_conflict") return payload;
  const reason = payload.reason === "waiting" ? "waiting" : "busy";
  return { code: payload.code, reason, message: CONVERSATION_CONFLICT[reason]! };
}
