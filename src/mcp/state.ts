// What an MCP call that suspended keeps as the tool's private state (`pending(request, { state })`, read back
// as `ctx.state`): enough for a fresh client in another process to retry the call — the call itself, the
// server's `inputRequests` and `requestState` verbatim, the responses gathered so far, the era and the
// highest JSON-RPC id already used. Never a header value: the resuming process supplies its own headers.
import * as v from "valibot";

export const STATE_VERSION = 1 as const;

const Call = v.object({ name: v.string(), arguments: v.record(v.string(), v.unknown()) });
const Server = v.object({ endpoint: v.string(), era: v.picklist(["modern", "legacy"]) });

const Common = {
  v: v.literal(STATE_VERSION),
  server: Server,
  call: Call,
  /** The id of the Request this state belongs to (the answer must echo it). */
  request: v.string(),
  /** The highest JSON-RPC request id the suspended connection had sent. */
  idFloor: v.pipe(v.number(), v.integer(), v.minValue(-1)),
};

/** A 2026-07-28 `input_required` round, answered one inputRequest (one Request) at a time, in order. */
const InputRequired = v.object({
  ...Common,
  mode: v.literal("input_required"),
  inputRequests: v.record(v.string(), v.unknown()),
  requestState: v.optional(v.string()),
  keys: v.array(v.string()),
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  responses: v.record(v.string(), v.unknown()),
});

/** A -32042 "URL elicitation required" error: retry-shaped, the call starts over once the URLs were visited. */
const UrlRequired = v.object({
  ...Common,
  mode: v.literal("url_required"),
  urls: v.array(v.object({ url: v.string(), message: v.string() })),
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** A session-era server pushed `elicitation/create` while the call was open: only this process can answer it. */
const Pushed = v.object({ ...Common, mode: v.literal("pushed") });

export const McpState = v.variant("mode", [InputRequired, UrlRequired, Pushed]);
export type McpState = v.InferOutput<typeof McpState>;
export type InputRequiredState = v.InferOutput<typeof InputRequired>;
export type UrlRequiredState = v.InferOutput<typeof UrlRequired>;
/** A state before it is given the id of its Request. */
export type Unsaved<S = McpState> = S extends McpState ? Omit<S, "request"> : never;

/** The state a re-execution was given, checked; a message naming what is wrong otherwise. */
export function readState(value: unknown): { ok: true; state: McpState } | { ok: false; problem: string } {
  const parsed = v.safeParse(McpState, value);
  if (parsed.success) return { ok: true, state: parsed.output };
  const issue = parsed.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".") ?? "";
  return { ok: false, problem: path ? `${path}: ${issue.message}` : issue.message };
}

/** The server's address as kept in state: origin and path, never the query (it may carry a key). */
export const endpointOf = (url: URL): string => `${url.origin}${url.pathname}`;
