// What an MCP call that suspended keeps as the tool's private state (`pending(request, { state })`, read back
// as `ctx.state`): enough for a fresh client in another process to retry the call — the call itself, the
// server's `inputRequests` and `requestState` verbatim, the responses gathered so far, the era and the
// highest JSON-RPC id already used. Never a header value: the resuming process supplies its own headers.
import { arrayOf, is, jsonObject, oneOf, optional, problemIn, shape, string, type Check } from "../_internal/check";

export const STATE_VERSION = 1 as const;

interface Common {
  v: typeof STATE_VERSION;
  server: { endpoint: string; era: "modern" | "legacy" };
  call: { name: string; arguments: Record<string, unknown> };
  /** The id of the Request this state belongs to (the answer must echo it). */
  request: string;
  /** The highest JSON-RPC request id the suspended connection had sent. */
  idFloor: number;
}

/** A 2026-07-28 `input_required` round, answered one inputRequest (one Request) at a time, in order. */
export interface InputRequiredState extends Common {
  mode: "input_required";
  inputRequests: Record<string, unknown>;
  requestState?: string;
  keys: string[];
  index: number;
  responses: Record<string, unknown>;
}

/** A -32042 "URL elicitation required" error: retry-shaped, the call starts over once the URLs were visited. */
export interface UrlRequiredState extends Common {
  mode: "url_required";
  urls: { url: string; message: string }[];
  index: number;
}

/** A session-era server pushed `elicitation/create` while the call was open: only this process can answer it. */
interface PushedState extends Common {
  mode: "pushed";
}

export type McpState = InputRequiredState | UrlRequiredState | PushedState;
/** A state before it is given the id of its Request. */
export type Unsaved<S = McpState> = S extends McpState ? Omit<S, "request"> : never;

const whole = (min: number) =>
  is((x) => Number.isInteger(x) && (x as number) >= min, `must be a whole number ≥ ${min}`);
const record = jsonObject("must be an object");
const common = {
  v: oneOf([STATE_VERSION]),
  server: shape({ endpoint: string, era: oneOf(["modern", "legacy"]) }),
  call: shape({ name: string, arguments: record }),
  request: string,
  idFloor: whole(-1),
};
const BY_MODE: Record<McpState["mode"], Check> = {
  input_required: shape({
    ...common,
    inputRequests: record,
    requestState: optional(string),
    keys: arrayOf(string),
    index: whole(0),
    responses: record,
  }),
  url_required: shape({ ...common, urls: arrayOf(shape({ url: string, message: string })), index: whole(0) }),
  pushed: shape(common),
};

/** The state a re-execution was given, checked; a message naming what is wrong otherwise. */
export function readState(value: unknown): { ok: true; state: McpState } | { ok: false; problem: string } {
  const mode = (value as { mode?: unknown } | null)?.mode;
  const check =
    typeof mode === "string" && Object.hasOwn(BY_MODE, mode) ? BY_MODE[mode as McpState["mode"]] : undefined;
  if (!check)
    return {
      ok: false,
      problem: `"mode" must be ${Object.keys(BY_MODE)
        .map((m) => `"${m}"`)
        .join(", ")}`,
    };
  const problem = problemIn(check, value);
  return problem ? { ok: false, problem: problem.describe() } : { ok: true, state: value as McpState };
}

/** The server's address as kept in state: origin and path, never the query (it may carry a key). */
export const endpointOf = (url: URL): string => `${url.origin}${url.pathname}`;
