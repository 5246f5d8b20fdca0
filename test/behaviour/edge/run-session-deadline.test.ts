// A page left open while its question's deadline passes (semantics 8): the session itself restores the run
// once at the earliest open deadline, so the run that went on by itself shows without a reload — while
// someone listens, and never after an answer or once the last listener has gone. The page's clock and
// timers are injected (the server's clock moves with them): no test waits for a deadline in real time.
import { describe, expect, it } from "vitest";
import { answerOutput, createRunSession, type RunSession, type RunSessionClock, type RunSessionState } from "toolnexus";
import { fakeClock } from "../../support/deadlines";
import { edgeWorld, memoryWebStorage } from "../../support/edge";

/** The page's clock: the server's time plus `ahead` ms, and timers that fire when `advance` reaches them. */
function pageClock(server: ReturnType<typeof fakeClock>, ahead = 0) {
  const timers = new Map<number, { at: number; fire: () => void }>();
  let ids = 0;
  let skew = ahead;
  const clock: RunSessionClock = {
    now: () => server.now() + skew,
    setTimeout(fire, ms) {
      timers.set(++ids, { at: clock.now() + ms, fire });
      return ids;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  /** Moves the page's time on by `seconds` (the server's too, unless `pageOnly`), firing the timers due. */
  const advance = (seconds: number, pageOnly = false) => {
    if (pageOnly) skew += seconds * 1000;
    else server.advance(seconds);
    for (const [id, timer] of [...timers])
      if (timer.at <= clock.now()) {
        timers.delete(id);
        timer.fire();
      }
  };
  return { clock, advance, timers: () => timers.size };
}

/** A session on `clock` against a handler whose client asks with a 60 s deadline; the bodies it POSTed. */
function world(ahead = 0) {
  const server = fakeClock(Date.now());
  const w = edgeWorld({ client: { clock: server, answerTimeoutSeconds: 60 } });
  const page = pageClock(server, ahead);
  const posted: Record<string, unknown>[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    posted.push(JSON.parse(String(init?.body)));
    return w.fetch(input, init);
  }) as typeof globalThis.fetch;
  const session = createRunSession({ endpoint: "/api/run", fetch, storage: memoryWebStorage(), clock: page.clock });
  const restores = () => posted.filter((b) => b.restore === true).length;
  return { w, page, session, restores };
}

/** Resolves with the first state `session` reports that passes `test` (the current one included). */
function until(session: RunSession, test: (s: RunSessionState) => boolean): Promise<RunSessionState> {
  return new Promise((resolve) => {
    let off: (() => void) | undefined;
    let done = false;
    off = session.subscribe((s) => {
      if (done || !test(s)) return;
      done = true;
      resolve(s);
      off?.();
    });
    if (done) off();
  });
}

const last = (s: RunSessionState) => s.messages.at(-1)?.text;

describe("a run session at an open request's deadline", () => {
  it("restores once when the deadline passes, and shows the run as it went on by itself; the tool never ran", async () => {
    const { w, page, session, restores } = world();
    const off = session.subscribe(() => {});
    await session.send("which city?");
    expect(session.state.status).toBe("waiting");
    expect(session.state.requests[0]!.expiresAt).toBeDefined();
    expect(page.timers()).toBe(1);

    page.advance(59); // not yet
    expect(restores()).toBe(0);
    page.advance(2);
    const done = await until(session, (s) => s.status === "done");
    expect(last(done)).toBe("Done: declined/expired: Which city?");
    expect(done.requests).toEqual([]);
    expect(restores()).toBe(1);
    expect(page.timers()).toBe(0);
    expect(w.executions).toEqual([]);
    off();
  });

  it("sets no timer once the last listener has gone: the deadline passes without a restore", async () => {
    const { page, session, restores } = world();
    const off = session.subscribe(() => {});
    await session.send("which city?");
    expect(page.timers()).toBe(1);
    off();
    expect(page.timers()).toBe(0);
    page.advance(61);
    expect(restores()).toBe(0);
    expect(session.state.status).toBe("waiting");
  });

  it("an answer before the deadline cancels the timer: the answered run is all that happens", async () => {
    const { w, page, session, restores } = world();
    const off = session.subscribe(() => {});
    await session.send("which city?");
    expect(page.timers()).toBe(1);
    await session.answer(answerOutput(session.state.requests[0]!.id, "Lisbon"));
    expect(session.state.status).toBe("done");
    expect(page.timers()).toBe(0);
    page.advance(61);
    expect(restores()).toBe(0);
    expect(w.executions).toEqual(["ask_city:Lisbon"]);
    off();
  });

  it("a page whose clock runs ahead of the server's restores once, not in a loop", async () => {
    const { page, session, restores } = world();
    const off = session.subscribe(() => {});
    await session.send("which city?");
    page.advance(61, true); // the page's deadline passes; the server's has not
    const back = await until(session, (s) => s.status === "waiting" && restores() === 1);
    expect(back.requests).toHaveLength(1); // still open on the server
    expect(page.timers()).toBe(0);
    page.advance(60, true);
    expect(restores()).toBe(1);
    off();
  });
});
