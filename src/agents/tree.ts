// The agent tree's stored form: per parent run, one record under `agents:<parentRunId>` in the client's own
// storage, by value — the n-th child of each definition (the deterministic ids) and, per task call (keyed by
// its idempotency key, stable across resume), the child's handle id, its run id, its task key and, once it
// settled, its result. A re-run `task` call reattaches to its child through it: never a duplicate spawn. An
// entry is written before its child starts and its result before the parent's call returns it, so a call
// re-run after a crash finds either the child's result, its open request, or a child whose outcome the crash
// lost (reported as interrupted, never run again).
import { RunStateError, StorageError } from "../errors";
import { swap } from "../storage/swap";
import type { Client } from "../client";
import type { Usage } from "../types";
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
  /** The child's usage with its descendants' (the parent's run rolls it up), once it settled. */
  usage?: Usage;
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
  // its calls keyed by idempotency keys, new in every run: a prototype-less object is a dictionary from the start,
  // where a `{}` would grow a hidden class per key (a V8 shape never reused: time and garbage per delegation)
  if (raw === undefined) return { v: 1, n: {}, calls: Object.create(null) as TreeRecord["calls"] };
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

/** A storage operation on the tree; its failure is a StorageError naming it (a core error: it ends the run). */
async function op<T>(operation: "get" | "compareAndSet", key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw new StorageError(operation, key, cause);
  }
}

/** The entry of one task call, as stored (undefined: none yet). */
export async function entryOf(client: Client, parentRunId: string, callKey: string): Promise<ChildEntry | undefined> {
  const key = treeKey(parentRunId);
  return parseTree(await op("get", key, () => client.storage.get(key)), parentRunId).calls[callKey];
}

/** Reads, changes and writes the tree with a compare-and-set, again until it lands. */
/**
 * A guess at a tree's stored text: what this process last wrote of it (or, for a run that just started,
 * none). The compare-and-set decides: a wrong guess costs one failed write, then the tree is read.
 */
export interface TreeGuess {
  runId: string;
  raw: string | undefined;
  /** `raw` parsed, while nothing changed it since (a write that fails drops it). */
  tree?: TreeRecord;
  /** A new run's spawns so far, and the last n of each definition (see `reserve`). */
  spawns?: number;
  top?: Record<string, number>;
  /** The write under way: the next waits for it, so that it compares against what that one wrote. */
  busy?: Promise<unknown>;
}

/** `entry`, once `raw` (the text of `tree`) is what is stored: the guess of the next write. */
function keep(guess: TreeGuess | undefined, raw: string | undefined, tree: TreeRecord, entry: ChildEntry): ChildEntry {
  if (guess) {
    guess.raw = raw;
    guess.tree = tree;
  }
  return entry;
}

/**
 * Reads, changes and writes the tree with a compare-and-set — first against `guess` — again until it lands.
 * Writes with a guess are one at a time (sibling task calls settle at once), each against the last.
 */
function update(
  client: Client,
  parentRunId: string,
  change: (t: TreeRecord) => ChildEntry,
  guess: TreeGuess | undefined,
): Promise<ChildEntry> {
  if (!guess) return write(client, parentRunId, change, undefined);
  const next = guess.busy
    ? guess.busy.then(() => write(client, parentRunId, change, guess))
    : write(client, parentRunId, change, guess);
  guess.busy = next.catch(() => undefined);
  return next;
}

async function write(
  client: Client,
  parentRunId: string,
  change: (t: TreeRecord) => ChildEntry,
  guess: TreeGuess | undefined,
): Promise<ChildEntry> {
  const { storage } = client;
  const key = treeKey(parentRunId);
  const ttl = client.pendingTtlSeconds;
  let raw = guess ? guess.raw : await op("get", key, () => storage.get(key));
  let parsed = guess?.tree;
  for (;;) {
    const tree = parsed ?? parseTree(raw, parentRunId);
    if (guess) guess.tree = undefined; // changed below: kept again only once it is what is stored
    const entry = change(tree);
    const value = JSON.stringify(tree);
    // unchanged: the entry is stored (a guess holds only what was written)
    if (value === raw) return keep(guess, raw, tree, entry);
    if (await op("compareAndSet", key, () => swap(storage, key, raw, value, ttl ? { ttlSeconds: ttl } : undefined)))
      return keep(guess, value, tree, entry);
    raw = await op("get", key, () => storage.get(key));
    parsed = undefined;
  }
}

/**
 * The child of one task call: the one it already has (reattach), or a new one with the next id of its
 * definition (`fresh`: this call wrote it, so its child has not started).
 */
export async function childFor(
  client: Client,
  parentRunId: string,
  callKey: string,
  child: { agent: string; prompt: string; maxChildren: number },
  guess?: TreeGuess,
): Promise<{ entry: ChildEntry; fresh: boolean }> {
  const { agent, prompt, maxChildren } = child;
  let fresh = false;
  const entry = await update(
    client,
    parentRunId,
    (tree) => {
      const found = tree.calls[callKey];
      fresh = false;
      if (found) return found;
      // a spawn past the parent's maxChildren is refused (nothing written): an entry without a run
      if (Object.keys(tree.calls).length >= maxChildren)
        return { id: "", run: "", key: `maxChildren ${maxChildren} exceeded` };
      const n = (tree.n[agent] ?? 0) + 1;
      tree.n[agent] = n;
      const made: ChildEntry = { id: `${agent}.${n}`, run: `agent-${crypto.randomUUID()}`, key: `${agent}:${prompt}` };
      tree.calls[callKey] = made;
      fresh = true;
      return made;
    },
    guess,
  );
  return { entry, fresh };
}

/**
 * A new run's spawn, in memory: its entry is written with the child's outcome (its request or its result),
 * not before. A new run has nothing stored until it halts, and every call of its turn settles before that,
 * so a crash leaves no call of it to re-run and no child to find again: only this process writes its tree.
 */
export function reserve(
  guess: TreeGuess,
  child: { agent: string; prompt: string; maxChildren: number },
): { entry: ChildEntry; fresh: boolean } {
  const { agent, prompt, maxChildren } = child;
  const spawns = guess.spawns ?? 0;
  if (spawns >= maxChildren)
    return { entry: { id: "", run: "", key: `maxChildren ${maxChildren} exceeded` }, fresh: false };
  guess.spawns = spawns + 1;
  const top = guess.top ?? {};
  const n = (top[agent] ?? 0) + 1;
  guess.top = { ...top, [agent]: n };
  return {
    entry: { id: `${agent}.${n}`, run: `agent-${crypto.randomUUID()}`, key: `${agent}:${prompt}` },
    fresh: true,
  };
}

/**
 * Records a child's outcome by value: its settled result (and usage), or — `held`, a new run's spawn not
 * written yet (see `reserve`) — its entry, with the n of its id, before it is returned.
 */
export function settleChild(
  client: Client,
  parentRunId: string,
  callKey: string,
  settled: { result?: TaskResult | undefined; usage?: Usage | undefined; held?: ChildEntry | undefined },
  guess?: TreeGuess,
) {
  const { result, usage, held } = settled;
  return update(
    client,
    parentRunId,
    (tree) => {
      let entry = tree.calls[callKey];
      if (held && !entry) {
        // one literal with every field (an undefined one is not written): no shape change per field added
        entry = { id: held.id, run: held.run, key: held.key, result, usage };
        tree.calls[callKey] = entry;
        const dot = held.id.lastIndexOf(".");
        const agent = held.id.slice(0, dot);
        tree.n[agent] = Math.max(tree.n[agent] ?? 0, Number(held.id.slice(dot + 1)));
        return entry;
      }
      if (result) entry!.result = result;
      if (usage) entry!.usage = usage;
      return entry!;
    },
    guess,
  );
}
