// What the AG-UI and useChat endpoints share with the run handler and with each other: the options they
// take, the bounded body, the run a conversation (a thread, a chat) stands at, and the stored suspension
// a decision is checked against — never the history the page sends back.
import { isPlainObject } from "../_internal/json";
import { ConfigError, shown, stored, ToolnexusError } from "../errors";
import type { Client } from "../client";
import { conversationStore } from "../client/conversations";
import { loadRecord } from "../run-state/check";
import { runKey, type StoredCall } from "../run-state/record";
import type { SuspendedCall } from "../protocol/ag-ui";
import type { RunStorage, SetOptions } from "../storage/contract";
import type { ToolkitLike } from "../tools/types";
import type { StreamEvent } from "../types";
import { pageSafeEvent } from "./event-stream";
import { heldWaits } from "./held-waits";
import { ownerOf } from "./run-owner";
import type { Call, RunHandlerContext } from "./options";
import { readJson } from "./request";

/** The options of createAgUiHandler and createUiMessageStreamHandler. */
export interface InteropHandlerOptions {
  /** A client made by createClient or createInProcessClient (its `resumeSecret` checks and issues tokens). */
  client: Client;
  /** The tools every run and resume gets. */
  toolkit?: ToolkitLike;
  /** Who is asking (see createRunHandler's `owner`): threads and chats are kept per owner. */
  owner?: (request: Request) => string | null | Promise<string | null>;
  /** Send the model's reasoning to the page. Default false. */
  reasoning?: boolean;
  /** The largest request body read, in bytes. Default 262144 (256 KiB: these protocols re-send the history). */
  maxBodyBytes?: number;
}

/** One request to an interop endpoint: what its exchanges share (as the run handler's), and who asks. */
export type InteropCall = Omit<Call, "opts"> & { opts: InteropHandlerOptions };

/** The deepest a request body may nest (objects and arrays). */
const MAX_DEPTH = 64;

/** True when `value` nests deeper than `max`: walked level by level, never recursively. */
function tooDeep(value: unknown, max: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > max) return true;
    level = level.flatMap((v) => (v !== null && typeof v === "object" ? Object.values(v as object) : []));
  }
  return false;
}

/** The body as a JSON object, bounded in bytes (while it is read) and in depth: else a 4xx, nothing changed. */
export async function readInteropBody(call: InteropCall): Promise<Record<string, unknown>> {
  const body = await readJson(call.request, call.max);
  if (!isPlainObject(body))
    throw new ToolnexusError("bad_request", "toolnexus: the request body must be a JSON object");
  if (tooDeep(body, MAX_DEPTH))
    throw new ToolnexusError("bad_request", `toolnexus: the request body nests deeper than ${MAX_DEPTH} levels`);
  return body;
}

/** The run-handler settings an interop handler's calls share, its options checked. */
export function interopShared(name: string, opts: InteropHandlerOptions): Omit<InteropCall, "request" | "owner"> {
  const client = opts?.client as Partial<Client> | undefined;
  const mustBe = (field: string, ok: boolean, what: string, value: unknown) => {
    if (!ok) throw new ConfigError(field, `toolnexus: ${name} ${field} must be ${what}, got ${shown(value)}`);
  };
  const ok = typeof client?.stream === "function" && typeof client.resumeStream === "function";
  mustBe("client", ok && !!client.storage, "a client made by createClient", client);
  const max = opts.maxBodyBytes ?? 262_144;
  mustBe("maxBodyBytes", Number.isInteger(max) && max > 0, "a whole number > 0", max);
  mustBe("owner", opts.owner === undefined || typeof opts.owner === "function", "a function", opts.owner);
  const ttlSeconds = Math.ceil(client!.pendingTtlSeconds ?? 604_800);
  return {
    opts,
    max,
    storage: client!.storage!,
    ttl: ttlSeconds ? { ttlSeconds } : {},
    running: new Map(),
    waits: heldWaits(8),
    visible: (event) => (event.type === "reasoning" && opts.reasoning !== true ? undefined : pageSafeEvent(event)),
  };
}

/** The call of one request to an interop handler. */
export async function interopCall(
  shared: Omit<InteropCall, "request" | "owner">,
  request: Request,
  context?: RunHandlerContext,
): Promise<InteropCall> {
  return {
    ...shared,
    request,
    owner: await ownerOf(shared.opts.owner, request),
    waitUntil: context?.waitUntil?.bind(context),
  };
}

/** Where a conversation's latest run is kept: a thread's or a chat's resume and replay start there. */
const latestKey = (conversationId: string) => `edge-latest:${conversationId}`;

export const latestRun = (storage: RunStorage, conversationId: string): Promise<string | undefined> =>
  stored("get", latestKey(conversationId), () => storage.get(latestKey(conversationId)));

/** The run a conversation waits on (its open requests hold it), if any. */
export async function waitingRun(storage: RunStorage, conversationId: string): Promise<string | undefined> {
  return (await conversationStore(storage, 10_000).load(conversationId)).record.pendingRunId;
}

/** The stored calls of run `runId` (undefined: no such run). */
export async function storedCalls(storage: RunStorage, runId: string): Promise<StoredCall[] | undefined> {
  const key = runKey(runId);
  const raw = await stored("get", key, () => storage.get(key));
  return raw === undefined ? undefined : loadRecord(runId, raw).calls;
}

/**
 * The run's events, each `pending` with the call it suspended (read from the stored run), and the
 * conversation's latest run noted at the first event (a refused exchange never moves it).
 */
export async function* withCalls(
  events: AsyncIterable<StreamEvent>,
  storage: RunStorage,
  conversationId: string,
  runId: string,
  ttl: SetOptions,
): AsyncGenerator<StreamEvent> {
  let calls: StoredCall[] | undefined;
  let first = true;
  for await (const event of events) {
    if (first) await stored("set", latestKey(conversationId), () => storage.set(latestKey(conversationId), runId, ttl));
    first = false;
    if (event.type !== "pending" || !event.runId) {
      yield event;
      continue;
    }
    calls ??= (await storedCalls(storage, event.runId)) ?? [];
    const found = calls.find((c) => c.request?.id === event.request.id);
    const call: SuspendedCall | undefined = found ? { id: found.id, name: found.name } : undefined;
    yield (call ? { ...event, call } : event) as StreamEvent;
  }
}
