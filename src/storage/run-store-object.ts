// RunStoreObject: the Durable Object class behind durableObjectStorage({ namespace }). It serves the adapter's
// operations one at a time over `fetch`, and deletes expired records with an alarm.
import { isPlainObject } from "../_internal/json";
import { ConfigError } from "../errors";
import type { RunStorage } from "./contract";
import { keptAlarms, sweep } from "./alarms";
import { createLocal, queueFor, type Local, type RunStoreStorageLike } from "./durable-object";

/**
 * The Durable Object behind `durableObjectStorage({ namespace })`. Export it from your Worker's main module
 * and bind it (`[[durable_objects.bindings]] class_name = "RunStoreObject"`, plus a `new_sqlite_classes` migration).
 */
export class RunStoreObject {
  /**
   * The brand the Workers types (`wrangler types`, @cloudflare/workers-types) require of a Durable Object class,
   * so `DurableObjectNamespace<RunStoreObject>` type-checks; declared only, nothing exists at run time.
   */
  declare __DURABLE_OBJECT_BRAND: never;
  readonly #local: Local;
  readonly #store: RunStorage;

  constructor(ctx: { storage: RunStoreStorageLike }, _env?: unknown) {
    this.#local = { storage: ctx.storage, prefix: "", now: () => Date.now(), alarms: keptAlarms(ctx.storage, "") };
    this.#store = createLocal(this.#local);
  }

  async fetch(request: Request): Promise<Response> {
    const store = this.#store;
    try {
      const body = await request.json().catch(() => undefined);
      if (!isPlainObject(body))
        throw new ConfigError(
          "body",
          "toolnexus: RunStoreObject takes a JSON object — use durableObjectStorage({ namespace })",
        );
      const { op, key, value, expected } = body as { op: unknown; key: string; value: string; expected?: string };
      const opts = { ttlSeconds: body.ttlSeconds as number | undefined };
      if (op === "get") return Response.json({ value: (await store.get(key)) ?? null });
      if (op === "set") await store.set(key, value, opts);
      else if (op === "delete") await store.delete(key);
      else if (op === "compareAndSet")
        return Response.json({ wrote: await store.compareAndSet!(key, expected, value, opts) });
      else throw new ConfigError("op", `toolnexus: RunStoreObject got an unknown op ${JSON.stringify(op)}`);
      return Response.json({});
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return new Response(message, { status: error instanceof ConfigError ? 400 : 500 });
    }
  }

  /**
   * The storage this object serves (atomic, its alarm kept at the earliest TTL and deadline): what a subclass's
   * `alarm()` builds its client on — `await super.alarm(); await client.expire({ toolkit })` (semantics 8).
   */
  runStorage(): RunStorage {
    return this.#store;
  }

  /** Deletes expired records; a subclass then continues the runs whose deadline passed (`client.expire`). */
  async alarm(): Promise<void> {
    await queueFor(this.#local.storage)(() => sweep(this.#local));
  }
}
