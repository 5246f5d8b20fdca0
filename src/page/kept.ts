// What a run session keeps in Web Storage so a reload finds its conversation and open question again: the
// visible messages, the open run's id and token, the conversation id. Nothing the page did not already show.

/** A message the page shows: a user's prompt (or the text of an answer), or the assistant's text. */
export interface RunSessionMessage {
  role: "user" | "assistant";
  text: string;
  /** The exchange was stopped (a Stop in this tab or another) after this text: shown as a muted mark. */
  stopped?: true;
}

/** Anything with Web Storage's three methods: `sessionStorage`, `localStorage`, or your own. */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Kept {
  conversationId: string;
  messages: RunSessionMessage[];
  runId?: string;
  tokens?: Record<string, string>;
  /** The exchange streaming when this was kept: a reload replays it from its start (after `base` messages). */
  stream?: { runId: string; exchange: number; base: number };
}

function streamOf(value: unknown): Kept["stream"] {
  const { runId, exchange, base } = (value ?? {}) as Partial<NonNullable<Kept["stream"]>>;
  const whole = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
  return typeof runId === "string" && runId && whole(exchange) && whole(base) ? { runId, exchange, base } : undefined;
}

const MAX_KEPT_MESSAGES = 200;

function isMessage(m: unknown): m is RunSessionMessage {
  const { role, text } = (m ?? {}) as Partial<RunSessionMessage>;
  return (role === "user" || role === "assistant") && typeof text === "string";
}

/** The default storage: the tab's sessionStorage where there is one (a page), else none. */
export function defaultStorage(): SessionStorageLike | undefined {
  try {
    return (globalThis as { sessionStorage?: SessionStorageLike }).sessionStorage;
  } catch {
    return undefined; // a sandboxed frame throws on access
  }
}

/** What was kept under `key`, or a fresh start; a value that is not ours is ignored, never trusted. */
export function load(storage: SessionStorageLike | undefined, key: string): Kept {
  let kept: Partial<Kept> | undefined;
  try {
    kept = JSON.parse(storage?.getItem(key) ?? "null") ?? undefined;
  } catch {
    kept = undefined;
  }
  const tokens = kept?.tokens && typeof kept.tokens === "object" ? kept.tokens : undefined;
  // a field left undefined is not kept: JSON leaves it out
  return {
    conversationId: typeof kept?.conversationId === "string" ? kept.conversationId : `conv-${crypto.randomUUID()}`,
    messages: Array.isArray(kept?.messages) ? kept.messages.filter(isMessage) : [],
    runId: typeof kept?.runId === "string" && kept.runId ? kept.runId : undefined,
    tokens: tokens && Object.fromEntries(Object.entries(tokens).filter(([, t]) => typeof t === "string")),
    stream: streamOf(kept?.stream),
  };
}

export function save(storage: SessionStorageLike | undefined, key: string, kept: Kept): void {
  try {
    storage?.setItem(key, JSON.stringify({ ...kept, messages: kept.messages.slice(-MAX_KEPT_MESSAGES) }));
  } catch {
    // full or refused: the session goes on in memory
  }
}
