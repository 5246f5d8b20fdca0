// Remembered approvals, kept in the client's storage beside the conversations: under
// `approvals:conversation:<id>` for a conversation, `approvals:run:<runId>` for a run that has none (it
// holds for that run alone, and expires with it), and `approvals:owner:<hash of the owner>` for an owner.
// Each is `{ v: 1, tools: { <tool>: true | [<digest of the arguments>, …] } }`: `true` allows any arguments.
// A run looks only in its own conversation (or run) and its own owner, so a remembered approval never
// crosses conversations or owners; without an owner, "owner" is remembered for the conversation instead.
// What cannot be read is treated as nothing remembered (the user is asked again), never as allowed.
import { ConfigError } from "../errors";
import { canonical, isPlainObject } from "../_internal/json";
import { sha256Hex } from "../_internal/sha256";
import type { ApprovalMemory, ApprovalPlace } from "../loop/context";
import { swap } from "../run-state/swap";
import type { RunStorage } from "../types";

type Tools = Record<string, true | string[]>;

/** The most argument digests remembered for one tool; the oldest go first. */
const MAX_ARGS = 100;
const MAX_OWNER = 1024;
const WRITE_TRIES = 5;

/** The key of the approvals remembered for a conversation (cleared by `client.forget(id)`). */
export const conversationApprovalsKey = (id: string): string => `approvals:conversation:${id}`;
const runKey = (runId: string) => `approvals:run:${runId}`;
const ownerKey = (owner: string) => `approvals:owner:${sha256Hex(owner).slice(0, 40)}`;

const digest = (args: Record<string, unknown>) => sha256Hex(canonical(args)).slice(0, 32);

/** The run's owner as given in its options: a non-empty string, or none. */
export function checkOwner(owner: unknown): string | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner === "string" && owner !== "" && owner.length <= MAX_OWNER) return owner;
  throw new ConfigError(
    "owner",
    `toolnexus: owner must be a non-empty string of at most ${MAX_OWNER} characters (the user the run is for), got ${typeof owner}`,
  );
}

async function read(storage: RunStorage, key: string): Promise<{ tools: Tools; raw: string | undefined }> {
  const raw = await storage.get(key);
  if (raw === undefined) return { tools: {}, raw };
  try {
    const record = JSON.parse(raw) as { v?: unknown; tools?: unknown };
    if (record?.v === 1 && isPlainObject(record.tools)) return { tools: record.tools as Tools, raw };
  } catch {}
  return { tools: {}, raw }; // not ours: nothing is remembered, and a new approval replaces it
}

function covers(tools: Tools, tool: string, args: Record<string, unknown>): boolean {
  const kept = Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  return kept === true || (Array.isArray(kept) && kept.includes(digest(args)));
}

/** Adds the approval to `tools` (any arguments, or these); a tool allowed for any arguments stays so. */
function added(tools: Tools, tool: string, args: Record<string, unknown>, sameArgs: boolean): Tools {
  const kept = Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  if (kept === true || !sameArgs) return { ...tools, [tool]: true };
  const list = (Array.isArray(kept) ? kept : []).filter((d) => typeof d === "string");
  const d = digest(args);
  return { ...tools, [tool]: list.includes(d) ? list : [...list, d].slice(-MAX_ARGS) };
}

/** The approvals a run of `owner` remembers; a run without a conversation keeps its own for `runTtlSeconds`. */
export function approvalMemory(
  storage: RunStorage,
  owner: string | undefined,
  runTtlSeconds: number | undefined,
  warn: (message: string) => void,
): ApprovalMemory {
  const placeKey = (place: ApprovalPlace) =>
    place.conversationId === undefined ? runKey(place.runId) : conversationApprovalsKey(place.conversationId);
  return {
    async allowed(place, tool, args) {
      const keys = owner === undefined ? [placeKey(place)] : [placeKey(place), ownerKey(owner)];
      try {
        for (const key of keys) if (covers((await read(storage, key)).tools, tool, args)) return true;
      } catch {}
      return false;
    },
    async remember(place, tool, args, data) {
      const forOwner = data.remember === "owner" && owner !== undefined;
      const key = forOwner ? ownerKey(owner) : placeKey(place);
      const ttl = !forOwner && place.conversationId === undefined && storage.capabilities.ttl ? runTtlSeconds : 0;
      try {
        for (let tries = 0; tries < WRITE_TRIES; tries++) {
          const { tools, raw } = await read(storage, key);
          const value = JSON.stringify({ v: 1, tools: added(tools, tool, args, data.sameArgs === true) });
          if (await swap(storage, key, raw, value, ttl ? { ttlSeconds: ttl } : undefined)) return;
        }
        warn(
          `toolnexus: the approval of ${tool} was not remembered (the storage kept changing) — it will be asked again`,
        );
      } catch {
        warn(`toolnexus: the approval of ${tool} was not remembered (the storage failed) — it will be asked again`);
      }
    },
  };
}
