// useRunSession rendered on the server with react-dom/server: the stable idle snapshot, and no browser
// global, storage or fetch touched. The same file runs against React 18 from test/react18/.
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { answerOutput, createRunSession, type SessionStorageLike } from "toolnexus";
import { useRunSession, type UseRunSessionOptions } from "toolnexus/react";

/** Browser globals a server render must not read: each read is recorded (and answers undefined). */
const BROWSER_GLOBALS = ["window", "document", "sessionStorage", "localStorage", "location", "navigator"] as const;

function trapGlobals(): { touched: string[]; release: () => void } {
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  for (const name of BROWSER_GLOBALS)
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get: () => void touched.push(name),
    });
  const release = () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  };
  return { touched, release };
}

/** A fetch and a storage that record being used at all. */
function recorders() {
  const used: string[] = [];
  const fetch = (async () => {
    used.push("fetch");
    throw new Error("no fetch on the server");
  }) as typeof globalThis.fetch;
  const storage: SessionStorageLike = {
    getItem: (k) => (used.push(`getItem ${k}`), null),
    setItem: (k) => void used.push(`setItem ${k}`),
    removeItem: (k) => void used.push(`removeItem ${k}`),
  };
  return { used, fetch, storage };
}

function Chat(props: UseRunSessionOptions) {
  const { state, send } = useRunSession(props);
  return (
    <section>
      <p>{state.status}</p>
      {state.messages.map((m, i) => (
        <p key={String(i)}>{m.text}</p>
      ))}
      <button type="button" onClick={() => void send("hi")}>
        Send
      </button>
    </section>
  );
}

let trap: ReturnType<typeof trapGlobals> | undefined;
afterEach(() => {
  trap?.release();
  trap = undefined;
});

describe("useRunSession on the server", () => {
  it("renders the idle snapshot without touching window, document, storage or fetch", () => {
    const { used, fetch, storage } = recorders();
    trap = trapGlobals();
    const html = renderToString(<Chat endpoint="/api/run" fetch={fetch} storage={storage} />);
    const touched = [...trap.touched];
    trap.release();
    expect(html).toBe('<section><p>idle</p><button type="button">Send</button></section>');
    expect(touched).toEqual([]);
    expect(used).toEqual([]);
  });

  it("without a storage option, still reads no default storage (the session is never made)", () => {
    trap = trapGlobals();
    const html = renderToString(<Chat endpoint="/api/run" />);
    const touched = [...trap.touched];
    trap.release();
    expect(html).toContain("<p>idle</p>");
    expect(touched).toEqual([]);
  });

  it('storage: "local" renders on the server without reading localStorage (it is looked up on the client)', () => {
    trap = trapGlobals();
    const html = renderToString(<Chat endpoint="/api/run" storage="local" />);
    const touched = [...trap.touched];
    trap.release();
    expect(html).toContain("<p>idle</p>");
    expect(touched).toEqual([]);
  });

  it("a given session with kept messages still renders the server snapshot, the same on every render", async () => {
    const storage: SessionStorageLike & { data: Map<string, string> } = {
      data: new Map(),
      getItem: (k) => storage.data.get(k) ?? null,
      setItem: (k, v) => void storage.data.set(k, v),
      removeItem: (k) => void storage.data.delete(k),
    };
    const kept = { conversationId: "c1", messages: [{ role: "user", text: "kept earlier" }] };
    storage.data.set("toolnexus:run-session", JSON.stringify(kept));
    const session = createRunSession({ endpoint: "/api/run", storage, fetch: recorders().fetch });
    expect(session.state.messages).toEqual([{ role: "user", text: "kept earlier" }]);
    const first = renderToString(<Chat session={session} />);
    const second = renderToString(<Chat session={session} />);
    expect(first).toBe(second);
    expect(first).not.toContain("kept earlier"); // the page shows it after hydration, not the server
    await session.answer(answerOutput("nothing-open", "x")); // ignored: no open run, no fetch
    expect(session.state.status).toBe("idle");
  });
});
