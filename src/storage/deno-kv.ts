// denoKvStorage(): an atomic RunStorage over Deno KV. Every write is a versionstamp-checked commit of the
// key's head entry. Deno KV holds at most 64 KiB per value and ~800 KB per commit, so a longer value is
// written as chunks under fresh keys first; one checked commit then swaps the head to point at them, and
// the chunks of the value it replaced are deleted after.
import { ConfigError, ToolnexusError } from "../errors";
import type { RunStorage } from "./contract";
import { defineStorage, kindOf } from "./define";
import { fitKey } from "./keys";
import { headFor, readHead, type Head } from "./chunks";
import { isExpired } from "./expiry";

export type DenoKvKeyPart = string | number | bigint | boolean | Uint8Array;
export type DenoKvKey = readonly DenoKvKeyPart[];

/** The part of `Deno.AtomicOperation` this adapter uses. */
export interface DenoKvAtomicLike {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvAtomicLike;
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  delete(key: DenoKvKey): DenoKvAtomicLike;
  commit(): Promise<{ ok: boolean }>;
}

/** The part of `Deno.Kv` this adapter uses (typed here so the core needs no Deno types). */
export interface DenoKvLike {
  get(key: DenoKvKey): Promise<{ value: unknown; versionstamp: string | null }>;
  list(selector: { prefix: DenoKvKey }): AsyncIterable<{ value: unknown }>;
  atomic(): DenoKvAtomicLike;
}

export interface DenoKvStorageOptions {
  /** An open `Deno.Kv`, e.g. `await Deno.openKv()`. */
  kv: DenoKvLike;
  /** Leading key parts of every entry. Default `["toolnexus"]`. */
  prefix?: DenoKvKey;
  /** The clock TTLs are measured with, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

interface Current {
  head: Head | undefined;
  value: string | undefined;
  versionstamp: string | null;
}

const CHUNK = 30_000; // UTF-16 units: ≤ 60,000 bytes serialized, under the 65,536-byte value limit
const PER_COMMIT = 10; // chunks per commit: ≤ ~600 KB, under the 819,200-byte commit limit
const DELETES_PER_COMMIT = 500; // under the 1,000 mutations a commit may hold
const MAX_KEY_BYTES = 1024; // of the 2,048 bytes a whole key may take
const CHUNK_GRACE_MS = 60_000; // chunks outlive their head, so a reader never finds a head without them
const ATTEMPTS = 100;

// Deno KV may show an expired key for a while; the head's own expiry is exact
function toHead(raw: unknown): Head | undefined {
  if (raw === null || raw === undefined) return undefined;
  const head = readHead(raw);
  if (head) return head;
  throw new ToolnexusError(
    "storage",
    "toolnexus: a Deno KV entry under the prefix was not written by denoKvStorage — delete it or use another prefix",
  );
}

interface Db {
  kv: DenoKvLike;
  prefix: DenoKvKey;
  now: () => number;
}

const chunkPrefix = (db: Db, g: string): DenoKvKey => [...db.prefix, "#c", g];
const chunkKeys = (db: Db, h: Head | undefined): DenoKvKey[] =>
  h?.g === undefined ? [] : Array.from({ length: h.n ?? 0 }, (_, i) => [...chunkPrefix(db, h.g!), i]);

async function headKey(db: Db, key: string): Promise<DenoKvKey> {
  const fitted = await fitKey(key, MAX_KEY_BYTES);
  return fitted === key ? [...db.prefix, key] : [...db.prefix, "#h", fitted]; // different lengths: never the same key
}

/** Unchecked commits of `ops`, `per` at a time (used only on fresh chunk keys nobody else writes). */
async function commitAll(db: Db, ops: ((op: DenoKvAtomicLike) => DenoKvAtomicLike)[], per: number): Promise<void> {
  for (let i = 0; i < ops.length; i += per) {
    let op = db.kv.atomic();
    for (const add of ops.slice(i, i + per)) op = add(op);
    if (!(await op.commit()).ok)
      throw new ToolnexusError("storage", "toolnexus: a Deno KV commit without checks failed");
  }
}

const dropChunks = (db: Db, h: Head | undefined) =>
  commitAll(
    db,
    chunkKeys(db, h).map((k) => (op) => op.delete(k)),
    DELETES_PER_COMMIT,
  );

async function read(db: Db, key: DenoKvKey): Promise<Current> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await db.kv.get(key);
    const head = toHead(entry.value);
    const current = { head, versionstamp: entry.versionstamp };
    if (head === undefined || isExpired(head.e, db.now)) return { ...current, value: undefined };
    if (head.v !== undefined) return { ...current, value: head.v };
    const parts: string[] = [];
    for await (const part of db.kv.list({ prefix: chunkPrefix(db, head.g!) })) parts.push(part.value as string);
    if (parts.length === head.n) return { ...current, value: parts.join("") };
    // a writer replaced this head and deleted its chunks while we read: read the new head
  }
  throw new ToolnexusError("storage", "toolnexus: a Deno KV record kept changing while it was read — try again");
}

interface Staged {
  head: Head;
  ttl: { expireIn: number } | undefined;
}

/** Writes the new value's chunks, if it needs any; returns the head that points at them. */
async function stage(db: Db, value: string, e: number | undefined): Promise<Staged> {
  const expireIn = e === undefined ? undefined : Math.max(1, Math.ceil(e - db.now()));
  const { head, parts } = headFor(value, CHUNK, e);
  const chunkTtl = expireIn === undefined ? undefined : { expireIn: expireIn + CHUNK_GRACE_MS };
  await commitAll(
    db,
    parts.map((part, i) => (op) => op.set([...chunkPrefix(db, head.g!), i], part, chunkTtl)),
    PER_COMMIT,
  );
  return { head, ttl: expireIn === undefined ? undefined : { expireIn } };
}

/** A versionstamp-checked swap of the head (`next` undefined deletes), retried while others commit in between. */
async function swap(
  db: Db,
  key: string,
  accept: (current: string | undefined) => boolean,
  next: string | undefined,
  e?: number,
): Promise<boolean> {
  const k = await headKey(db, key);
  let staged: Staged | undefined;
  let committed = false;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await read(db, k);
      if (!accept(current.value)) return false;
      if (next !== undefined) staged ??= await stage(db, next, e);
      const op = db.kv.atomic().check({ key: k, versionstamp: current.versionstamp });
      if (staged === undefined) op.delete(k);
      else op.set(k, staged.head, staged.ttl);
      if ((await op.commit()).ok) {
        committed = true;
        await dropChunks(db, current.head);
        return true;
      }
    }
    throw new ToolnexusError(
      "storage",
      `toolnexus: Deno KV key "${key}" changed on every one of ${ATTEMPTS} attempts — try again`,
    );
  } finally {
    if (!committed && staged !== undefined) await dropChunks(db, staged.head).catch(() => undefined);
  }
}

/**
 * An atomic RunStorage over Deno KV (`await Deno.openKv()`): compareAndSet is a versionstamp-checked
 * commit, so of many racing claims exactly one wins. TTLs use `expireIn` and are exact on read.
 */
/* @__NO_SIDE_EFFECTS__ */
export function denoKvStorage(options: DenoKvStorageOptions): RunStorage {
  const { kv } = options;
  if (typeof kv?.atomic !== "function")
    throw new ConfigError(
      "kv",
      `toolnexus: denoKvStorage needs { kv } — an open Deno.Kv from Deno.openKv(), got ${kindOf(kv)}`,
    );
  const db: Db = { kv, prefix: options.prefix ?? ["toolnexus"], now: options.now ?? (() => Date.now()) };
  return defineStorage(
    {
      capabilities: { atomic: true, ttl: true },
      get: async (key) => (await read(db, await headKey(db, key))).value,
      set: async (key, value, e) => void (await swap(db, key, () => true, value, e)),
      delete: async (key) => void (await swap(db, key, () => true, undefined)),
      compareAndSet: (key, expected, value, e) => swap(db, key, (current) => current === expected, value, e),
    },
    db.now,
  );
}
