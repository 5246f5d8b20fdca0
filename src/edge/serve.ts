// What every edge handler (the run handler, the AG-UI and useChat endpoints) does the same way: its options
// checked once, and each request made a call, routed by its method, and any error answered with the JSON
// error body (an unexpected one is not described, nor logged: its text is not ours to vouch for).
import type { Client } from "../client";
import { ConfigError, shown } from "../errors";
import { errorPayload, errorResponse } from "./error-body";
import { pageSafeEvent } from "../protocol/page-safe";
import { heldWaits } from "./held-waits";
import type { Call, RunHandlerContext, RunHandlerOptions } from "./options";
import { ownerOf } from "./run-owner";

/** What a handler's calls share: its options (`O`) checked, its storage, TTL and running exchanges. */
export type Shared<O> = Omit<Call, "opts" | "request" | "owner"> & { opts: O };

/** The options every edge handler takes. */
type HandlerOptions = Pick<
  RunHandlerOptions,
  "client" | "toolkit" | "agent" | "owner" | "maxBodyBytes" | "reasoning" | "ttlSeconds" | "maxHeldWaits"
>;

/** What a client keeps a halted run for, when it says nothing: 7 days. */
const DEFAULT_TTL_SECONDS = 604_800;

/** The settings of handler `name`, checked (a ConfigError names the bad option); `maxBodyBytes` its default. */
export function settle<O extends HandlerOptions>(name: string, opts: O, maxBodyBytes: number): Shared<O> {
  const client = opts?.client as Partial<Client> | undefined;
  const mustBe = (field: string, ok: boolean, what: string, value: unknown) => {
    if (!ok) throw new ConfigError(field, `toolnexus: ${name} ${field} must be ${what}, got ${shown(value)}`);
  };
  const ok = typeof client?.stream === "function" && typeof client.resumeStream === "function";
  mustBe("client", ok && !!client.storage, "a client made by createClient", client);
  const max = opts.maxBodyBytes ?? maxBodyBytes;
  mustBe("maxBodyBytes", Number.isInteger(max) && max > 0, "a whole number > 0", max);
  const ttlSeconds = opts.ttlSeconds ?? Math.ceil(client!.pendingTtlSeconds ?? DEFAULT_TTL_SECONDS);
  mustBe("ttlSeconds", Number.isInteger(ttlSeconds) && ttlSeconds >= 0, "a whole number ≥ 0", ttlSeconds);
  const agent = opts.agent;
  mustBe("agent", agent === undefined || typeof agent?.runOptions === "function", "an agent from agent()", agent);
  mustBe("agent", !(agent && opts.toolkit), "given alone (an agent brings its own tools), not with toolkit", agent);
  const owner = opts.owner;
  mustBe("owner", owner === undefined || typeof owner === "function", "a function (request) => string | null", owner);
  const maxWaits = opts.maxHeldWaits ?? 8;
  mustBe("maxHeldWaits", Number.isInteger(maxWaits) && maxWaits >= 0, "a whole number ≥ 0", maxWaits);
  return {
    opts,
    max,
    waits: heldWaits(maxWaits),
    storage: client!.storage!,
    ttl: ttlSeconds ? { ttlSeconds } : {},
    running: new Map(),
    // what a page may see of an event: reasoning only when forwarded, a done result without its transcript
    visible: (event) => (event.type === "reasoning" && opts.reasoning !== true ? undefined : pageSafeEvent(event)),
  };
}

type Route<O> = (call: Shared<O> & Pick<Call, "request" | "owner">) => Promise<Response>;

/** The handler serving POST with `post` and GET with `get` (if any); another method is a 405 saying `refusal`. */
export function serve<O extends HandlerOptions>(
  shared: Shared<O>,
  post: Route<O>,
  get: Route<O> | undefined,
  refusal: string,
): (request: Request, context?: RunHandlerContext) => Promise<Response> {
  return async function handle(request, context) {
    try {
      const owner = await ownerOf(shared.opts.owner, request);
      const call = { ...shared, request, owner, waitUntil: context?.waitUntil?.bind(context) };
      if (request.method === "POST") return await post(call);
      if (get && request.method === "GET") return await get(call);
      return errorResponse({ code: "method_not_allowed", message: refusal }, { allow: get ? "GET, POST" : "POST" });
    } catch (error) {
      return errorResponse(errorPayload(error));
    }
  };
}
