// The agent tree's stored form: per parent run, one record under `agents:<parentRunId>` in the client's own
// storage, by value — the n-th child of each definition (the deterministic ids) and, per task call (keyed by
// its idempotency key, stable across resume), the child's handle id, its run id, its task key and, once it
// settled, its result. A re-run `task` call reattaches to its child through it: never a duplicate spawn.
import { RunStateError } from "../errors";
import { swap } from "../storage/swap";
import type { Client } from "../client";
import type { TaskResult } from "./types";

export interface ChildEntry {
  /** The handle id's last segment: `<agent>.<n>`. */
  id: string;
  /** The child's own run id. */
  run: string;
  /** The family's task key, `<agent>:<prompt>`. */
  key: string;
  /** The child's settled outcome, once it has one. */
  result?: TaskResult;
}

export interface TreeRecord {
  v: 1;
  /** Children spawned per definition name. */
  n: Record<string, number>;
  /** Per task call (its idempotency key). */
  calls: Record<string, ChildEntry>;
}

export const treeKey = (parentRunId: string): string => `agents:${parentRunId}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const isEntry = (e: unknown): e is ChildEntry =>
  isObject(e) &&
  typeof e.id === "string" &&
  typeof e.run === "string" &&
  typeof e.key === "string" &&
  (e.result === undefined || isObject(e.result));

/** A stored tree read back; one that fails validation is a RunStateError and nothing runs. */
export function parseTree(raw: string | undefined, parentRunId: string): TreeRecord {
  if (raw === undefined) return { v: 1, n: {}, calls: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  const ok =
    isObject(value) &&
    value.v === 1 &&
    isObject(value.n) &&
    Object.values(value.n).every((n) => Number.isInteger(n)) &&
    isObject(value.calls) &&
    Object.values(value.calls).every(isEntry);
  if (!ok)
    throw new RunStateError(
      `toolnexus: the agent tree stored for run "${parentRunId}" is not valid — nothing was run`,
      parentRunId,
    );
  return value as unknown as TreeRecord;
}

/** Reads, changes and writes the tree with a compare-and-set, again until it lands. */
async function update(client: Client, parentRunId: string, change: (t: TreeRecord) => ChildEntry): Promise<ChildEntry> {
  const { storage } = client;
  const key = treeKey(parentRunId);
  const ttl = client.pendingTtlSeconds;
  for (;;) {
    const raw = await storage.get(key);
    const tree = parseTree(raw, parentRunId);
    const entry = change(tree);
    const value = JSON.stringify(tree);
    if (value === raw) return entry;
    if (await swap(storage, key, raw, value, ttl ? { ttlSeconds: ttl } : undefined)) return entry;
  }
}

/** The child of one task call: the one it already has (reattach), or a new one with the next id of its definition. */
export function childFor(
  client: Client,
  parentRunId: string,
  callKey: string,
  child: { agent: string; prompt: string; maxChildren: number },
) {
  const { agent, prompt, maxChildren } = child;
  return update(client, parentRunId, (tree) => {
    const found = tree.calls[callKey];
    if (found) return found;
    // a spawn past the parent's maxChildren is refused (nothing written): an entry without a run
    if (Object.keys(tree.calls).length >= maxChildren)
      return { id: "", run: "", key: `maxChildren ${maxChildren} exceeded` };
    const n = (tree.n[agent] ?? 0) + 1;
    tree.n[agent] = n;
    const entry: ChildEntry = { id: `${agent}.${n}`, run: `agent-${crypto.randomUUID()}`, key: `${agent}:${prompt}` };
    tree.calls[callKey] = entry;
    return entry;
  });
}

/** Records a child's settled outcome by value. */
export function settleChild(client: Client, parentRunId: string, callKey: string, result: TaskResult) {
  return update(client, parentRunId, (tree) => {
    const entry = tree.calls[callKey]!;
    entry.result = result;
    return entry;
  });
}
