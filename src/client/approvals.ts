// Remembered approvals, kept in the client's storage beside the conversations: under
// `approvals:conversation:<id>` for a conversation, `approvals:run:<runId>` for a run that has none (it
// holds for that run alone, and expires with it), and `approvals:owner:<hash of the owner>` for an owner.
// Each is `{ v: 1, tools: { <tool>: true | [<digest of the arguments>, …] } }`: `true` allows any arguments.
// A run looks only in its own conversation (or run) and its own owner, so a remembered approval never
// crosses conversations or owners; without an owner, "owner" is remembered for the conversation instead.
// What cannot be read is nothing remembered (the user is asked again), never an approval; an approval that
// cannot be written is not remembered, and the call it approved runs all the same.
import { ConfigError, stored } from "../errors";
import { canonical, isPlainObject } from "../_internal/json";
import { sha256Hex } from "../_internal/sha256";
import type { ApprovalMemory, ApprovalPlace } from "../loop/context";
import { swap } from "../storage/swap";
import type { RunStorage } from "../storage/contract";

type Tools = Record<string, true | string[] | undefined>;

/** The key of the approvals remembered for a conversation (cleared by `client.forget(id)`). */
export const conversationApprovalsKey = (id: string): string => `approvals:conversation:${id}`;

/** The key of the approvals remembered for all of an owner's runs. */
export const ownerApprovalsKey = async (owner: string): Promise<string> =>
  `approvals:owner:${(await sha256Hex(owner)).slice(0, 40)}`;

const digest = async (args: Record<string, unknown>) => (await sha256Hex(canonical(args))).slice(0, 32);

/** The run's owner as given in its options: a non-empty string (at most 1024 characters), or none. */
export function checkOwner(owner: unknown): string | undefined {
  if (owner === undefined || (typeof owner === "string" && owner && owner.length <= 1024)) return owner;
  throw new ConfigError("owner", `toolnexus: owner must be a non-empty string, got ${typeof owner}`);
}

/**
 * The tools remembered at `key`, and the stored text (what a compare-and-set over it expects). None, or not
 * ours: nothing is remembered, and a new approval replaces it. A storage that fails is a StorageError.
 */
export async function readApprovals(storage: RunStorage, key: string): Promise<[Tools, string | undefined]> {
  const raw = await stored("get", key, () => storage.get(key));
  try {
    const tools = JSON.parse(raw ?? "").tools;
    if (isPlainObject(tools)) return [tools as Tools, raw];
  } catch {}
  return [{}, raw];
}

/** The approvals a run of `owner` remembers; a run without a conversation keeps its own for `runTtlSeconds`. */
export function approvalMemory(
  storage: RunStorage,
  owner: string | undefined,
  runTtlSeconds: number | undefined,
): ApprovalMemory {
  // the owner's key is hashed once, when a run first needs it
  const ownerKey = owner === undefined ? undefined : ownerApprovalsKey(owner);
  const placeKey = (place: ApprovalPlace) =>
    place.conversationId === undefined
      ? `approvals:run:${place.runId}`
      : conversationApprovalsKey(place.conversationId);
  return {
    async allowed(place, tool, args) {
      try {
        for (const key of [placeKey(place), await ownerKey]) {
          const kept = key && (await readApprovals(storage, key))[0][tool];
          if (kept === true || (Array.isArray(kept) && kept.includes(await digest(args)))) return true;
        }
      } catch {}
      return false;
    },
    async remember(place, tool, args, data) {
      const key = (data.remember === "owner" && (await ownerKey)) || placeKey(place);
      const ttl = key.startsWith("approvals:run:") && storage.capabilities.ttl ? runTtlSeconds : undefined;
      try {
        const mine = await digest(args);
        for (let tries = 0; tries < 5; tries++) {
          const [tools, raw] = await readApprovals(storage, key);
          const kept = tools[tool];
          // a tool allowed for any arguments stays so; at most 100 argument digests, the oldest go first
          const list = Array.isArray(kept) ? kept.filter((d) => d !== mine) : [];
          const next = kept === true || data.sameArgs !== true ? true : [...list, mine].slice(-100);
          const value = JSON.stringify({ v: 1, tools: { ...tools, [tool]: next } });
          if (await swap(storage, key, raw, value, ttl ? { ttlSeconds: ttl } : undefined)) return;
        }
      } catch {}
    },
  };
}
