// useRunSession: createRunSession as React state, over useSyncExternalStore (React 18 and 19). The session is
// made once per component instance, lazily, never at import; a server render reads one stable idle snapshot
// and touches no browser global. On mount the hook restores the kept run once per session (StrictMode's
// second effect included); on unmount it only stops listening: a run the user started keeps going.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Answer } from "../types";
import {
  createRunSession,
  type AnswerOptions,
  type RunSession,
  type RunSessionOptions,
  type RunSessionState,
  type SessionStorageLike,
} from "../page/index";

export interface UseRunSessionOptions extends Partial<Omit<RunSessionOptions, "storage">> {
  /**
   * Where the open run is kept across reloads: a Web Storage, `"session"` (the default, the page's
   * `sessionStorage`), `"local"` (its `localStorage`: every tab of the site sees the open run) or `null` for
   * none. `"session"` and `"local"` are looked up when the session is made, on the client: a server render
   * reads neither.
   */
  storage?: SessionStorageLike | "session" | "local" | null;
  /** A session made elsewhere (shared by several components, or by a store); then the other options are unused. */
  session?: RunSession;
  /** Restore the kept conversation and its open requests when the component mounts. Default `true`. */
  restoreOnMount?: boolean;
}

/** What the hook returns: the current state, and the session's actions (stable while the session is). */
export interface RunSessionHandle {
  readonly state: RunSessionState;
  send(prompt: string): Promise<void>;
  answer(answer: Answer | Answer[], opts?: AnswerOptions): Promise<void>;
  /** Stops the current exchange; what had streamed stays. */
  stop(): Promise<void>;
  restore(): Promise<void>;
}

/** The state a server render shows (and a hydrating page first draws): idle and empty, one object always. */
const SERVER_STATE: RunSessionState = Object.freeze({
  status: "idle",
  messages: [],
  text: "",
  requests: [],
  calls: [],
  error: undefined,
  runId: undefined,
});
const serverState = () => SERVER_STATE;

type Stoppable = { stop?: () => Promise<void> };

/** The browser storage a name stands for, read from the page (never on a server: the session is made on the client). */
function namedStorage(name: "session" | "local"): SessionStorageLike | undefined {
  try {
    const page = globalThis as { localStorage?: SessionStorageLike; sessionStorage?: SessionStorageLike };
    return name === "local" ? page.localStorage : page.sessionStorage;
  } catch {
    return undefined; // a sandboxed frame throws on access
  }
}

/** createRunSession's options from the hook's: a storage named `"session"` or `"local"` looked up now. */
function sessionOptions({ storage, ...rest }: UseRunSessionOptions): RunSessionOptions {
  const options = rest as RunSessionOptions;
  if (typeof storage !== "string") return storage === undefined ? options : { ...options, storage };
  return { ...options, storage: namedStorage(storage) ?? null };
}

/**
 * The run session of this component. The options are read once, when the session is made: a later render's
 * endpoint or storage does not make another one (pass `session` to switch sessions). The session is made at
 * the first client render that needs it, so a server render reads no storage and makes none.
 */
export function useRunSession(options: UseRunSessionOptions): RunSessionHandle {
  // made at most once, from the first render's options, and only when asked for
  const [own] = useState(() => {
    let made: RunSession | undefined;
    return (): RunSession => {
      if (!made) made = createRunSession(sessionOptions(options));
      return made;
    };
  });
  const restored = useRef<RunSession | undefined>(undefined);
  const given = options.session;
  const session = useCallback((): RunSession => given ?? own(), [given, own]);
  const subscribe = useCallback((onChange: () => void) => session().subscribe(onChange), [session]);
  const state = useSyncExternalStore(subscribe, () => session().state, serverState);
  const restoreOnMount = options.restoreOnMount !== false;
  useEffect(() => {
    const current = session();
    if (!restoreOnMount || restored.current === current) return;
    restored.current = current;
    void current.restore();
  }, [session, restoreOnMount]);
  const actions = useMemo(
    () => ({
      send: (prompt: string) => session().send(prompt),
      answer: (answer: Answer | Answer[], opts?: AnswerOptions) => session().answer(answer, opts),
      stop: async () => {
        const current = session() as RunSession & Stoppable;
        if (current.stop) return current.stop();
        current.abort();
      },
      restore: () => session().restore(),
    }),
    [session],
  );
  return { state, ...actions };
}
