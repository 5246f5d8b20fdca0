// Remembered approvals as their user (or an admin page) sees them: `listApprovals(client, where)` and
// `revokeApprovals(client, where)`, per conversation and per owner — standalone functions, so a bundle that
// never lists or withdraws one ships none of this — through the same keys a run reads (approvals.ts) and
// the same scoping createRunHandler({ owner }) gives a signed-in user's conversation ids (ownedConversation). A withdrawn approval is asked for again.
import { ConfigError, shown, StorageError, stored } from "../errors";
import { isPlainObject } from "../_internal/json";
import { sha256Hex } from "../_internal/sha256";
import { swap } from "../storage/swap";
import type { RunStorage } from "../storage/contract";
import { checkOwner, conversationApprovalsKey, ownerApprovalsKey, readApprovals } from "./approvals";

/** Where remembered approvals are looked up: a conversation (as `owner`'s, at a run handler), an owner, or both. */
export interface ApprovalsWhere {
  /** The conversation id as the page sent it; with `owner`, the conversation of that signed-in user. */
  conversationId?: string;
  /** The owner (the run handler's `owner(request)`); alone, the approvals remembered for all of its runs. */
  owner?: string;
  /** Only this scope: `"conversation"` or `"owner"`. Default both that `where` names. */
  scope?: "conversation" | "owner";
  /** Only this tool. Default every tool. */
  tool?: string;
}

/** One remembered approval. */
export interface RememberedApproval {
  scope: "conversation" | "owner";
  tool: string;
  /** `"any"`: every call of the tool runs without asking; a number: that many argument sets (`sameArgs`). */
  args: "any" | number;
}

/** What the approval functions need of a client: the storage its runs remember approvals in. */
export interface ApprovalsHolder {
  readonly storage: RunStorage;
}

/**
 * A conversation id as createRunHandler({ owner }) stores it for a signed-in `owner`: under its own prefix,
 * so owners never share one. An anonymous caller's ids never take this shape (edge/run-owner.ts).
 */
export async function ownedConversation(id: string, owner: string): Promise<string> {
  return `owner-${(await sha256Hex(owner)).slice(0, 32)}:${id}`;
}

function checked(where: ApprovalsWhere, fn: string): ApprovalsWhere {
  const bad = (field: string, value: unknown, what: string) =>
    new ConfigError(field, `toolnexus: ${fn} ${field} must be ${what}, got ${shown(value)}`);
  if (!isPlainObject(where)) throw bad("where", where, "{ conversationId?, owner?, scope?, tool? }");
  const { conversationId: id, scope, tool } = where;
  checkOwner(where.owner);
  if (id !== undefined && (typeof id !== "string" || !id)) throw bad("conversationId", id, "a non-empty string");
  if (scope !== undefined && scope !== "conversation" && scope !== "owner")
    throw bad("scope", scope, '"conversation" or "owner"');
  if (tool !== undefined && (typeof tool !== "string" || !tool)) throw bad("tool", tool, "a tool name");
  if (id === undefined && where.owner === undefined) throw bad("where", where, "a conversationId, an owner or both");
  return where;
}

/** The keys `where` names, each with its scope. */
async function places(where: ApprovalsWhere): Promise<[RememberedApproval["scope"], string][]> {
  const { conversationId: id, owner, scope } = where;
  const out: [RememberedApproval["scope"], string][] = [];
  if (id !== undefined && scope !== "owner") {
    const stored = owner === undefined ? id : await ownedConversation(id, owner);
    out.push(["conversation", conversationApprovalsKey(stored)]);
  }
  if (owner !== undefined && scope !== "conversation") out.push(["owner", await ownerApprovalsKey(owner)]);
  return out;
}

type Tools = Record<string, unknown>;

const listed = (scope: RememberedApproval["scope"], tools: Tools, only?: string): RememberedApproval[] =>
  Object.entries(tools)
    .filter(([tool, kept]) => (only === undefined || tool === only) && (kept === true || Array.isArray(kept)))
    .map(([tool, kept]) => ({ scope, tool, args: kept === true ? "any" : (kept as unknown[]).length }));

/** Withdraws `only` (or every tool) at `key`; resolves how many were withdrawn. */
async function withdraw(storage: RunStorage, key: string, only: string | undefined): Promise<number> {
  for (let tries = 0; tries < 5; tries++) {
    const [tools, raw] = await readApprovals(storage, key);
    const gone = listed("owner", tools, only).length;
    if (raw === undefined || gone === 0) return 0;
    const left = Object.fromEntries(Object.entries(tools).filter(([tool]) => only !== undefined && tool !== only));
    if (Object.keys(left).length === 0) {
      await stored("delete", key, () => storage.delete(key));
      return gone;
    }
    const value = JSON.stringify({ v: 1, tools: left });
    if (await stored("compareAndSet", key, () => swap(storage, key, raw, value), value)) return gone;
  }
  // remembered again and again while it was withdrawn: said so, nothing claimed withdrawn
  throw new StorageError("compareAndSet", key, new Error("the approvals changed on every try"));
}

/** The remembered approvals `where` names ("always allow"), per conversation and per owner. */
export async function listApprovals(client: ApprovalsHolder, where: ApprovalsWhere): Promise<RememberedApproval[]> {
  const all: RememberedApproval[] = [];
  for (const [scope, key] of await places(checked(where, "listApprovals")))
    all.push(...listed(scope, (await readApprovals(client.storage, key))[0], where.tool));
  return all;
}

/** Withdraws what `listApprovals(client, where)` lists: those tools ask again. Resolves how many were withdrawn. */
export async function revokeApprovals(client: ApprovalsHolder, where: ApprovalsWhere): Promise<number> {
  let count = 0;
  for (const [, key] of await places(checked(where, "revokeApprovals")))
    count += await withdraw(client.storage, key, where.tool);
  return count;
}
