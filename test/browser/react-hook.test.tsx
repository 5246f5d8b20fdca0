// useRunSession in Chromium, through the React example's Chat against a real run handler (its fetch goes
// straight to the handler): mount, stream, answer, unmount, a reload that restores, StrictMode.
import { StrictMode } from "react";
import { describe, expect, it } from "vitest";
import { render, renderHook } from "vitest-browser-react";
import { createRunSession, type RunSession, type RunSessionState } from "toolnexus";
import { useRunSession } from "toolnexus/react";
import { Chat } from "../../examples/react/chat";
import { deployWorld, edgeWorld, memoryWebStorage } from "../support/edge";

/** The world's fetch, also counting the page's restores of a kept run (POST { runId, restore: true }). */
function counted(w: ReturnType<typeof edgeWorld>) {
  const restores: string[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (/"restore":true/.test(String(init?.body ?? ""))) restores.push(String(init!.body));
    return w.fetch(input, init);
  }) as typeof globalThis.fetch;
  return { restores, fetch };
}

describe("useRunSession in the page", () => {
  it("mounts idle, streams a reply, and shows it as a message", async () => {
    const w = edgeWorld();
    const screen = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={memoryWebStorage()} />);
    await expect.element(screen.getByTestId("status")).toHaveTextContent("idle");
    await screen.getByRole("textbox", { name: "Message" }).fill("hello there");
    await screen.getByRole("button", { name: "Send" }).click();
    await expect.element(screen.getByText("You said: hello there")).toBeInTheDocument();
    await expect.element(screen.getByTestId("status")).toHaveTextContent("done");
    await expect.element(screen.getByText("hello there", { exact: true })).toBeInTheDocument();
    await screen.unmount();
  });

  it("a question is drawn, answered by typing, and its tool runs once", async () => {
    const w = edgeWorld();
    const screen = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={memoryWebStorage()} />);
    await screen.getByRole("textbox", { name: "Message" }).fill("which city?");
    await screen.getByRole("button", { name: "Send" }).click();
    await expect.element(screen.getByRole("group", { name: "Which city?" })).toBeInTheDocument();
    await screen.getByRole("textbox", { name: "Your answer" }).fill("Chennai");
    await screen.getByRole("button", { name: "Answer" }).click();
    await expect.element(screen.getByText("Done: city Chennai")).toBeInTheDocument();
    expect(screen.getByRole("group").elements()).toHaveLength(0);
    expect(w.executions).toEqual(["ask_city:Chennai"]);
  });

  it("two approvals answered in reverse order each run once", async () => {
    const w = edgeWorld();
    const screen = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={memoryWebStorage()} />);
    await screen.getByRole("textbox", { name: "Message" }).fill("two approvals please");
    await screen.getByRole("button", { name: "Send" }).click();
    const b = screen.getByRole("group", { name: "Approve b?" });
    await expect.element(b).toBeInTheDocument();
    await b.getByRole("button", { name: "Approve" }).click();
    await expect.element(b).not.toBeInTheDocument();
    await screen.getByRole("group", { name: "Approve a?" }).getByRole("button", { name: "Decline" }).click();
    await expect.element(screen.getByText("Done: declined/expired: Approve a? | b approved")).toBeInTheDocument();
    expect(w.executions).toEqual(["approve:b:yes"]); // a declined approval never runs its tool
  });

  it("Always allow: the next call in the conversation runs without asking; another conversation is asked", async () => {
    const w = deployWorld();
    const screen = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={memoryWebStorage()} />);
    await screen.getByRole("textbox", { name: "Message" }).fill("ship it");
    await screen.getByRole("button", { name: "Send" }).click();
    const approval = screen.getByRole("group", { name: "Approve running the tool deploy?" });
    await approval.getByRole("button", { name: "Always allow" }).click();
    await expect.element(screen.getByText("Deployed.")).toBeInTheDocument();
    await screen.getByRole("textbox", { name: "Message" }).fill("ship it again");
    await screen.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => screen.getByText("Deployed.").elements().length).toBe(2);
    await expect.element(screen.getByTestId("status")).toHaveTextContent("done");
    expect(screen.getByRole("group").elements()).toHaveLength(0);
    expect(w.ran).toEqual(["deploy", "deploy"]);
    await screen.unmount();

    const other = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={memoryWebStorage()} />);
    await other.getByRole("textbox", { name: "Message" }).fill("ship it");
    await other.getByRole("button", { name: "Send" }).click();
    await expect.element(other.getByRole("group", { name: "Approve running the tool deploy?" })).toBeInTheDocument();
    expect(w.ran).toHaveLength(2);
  });

  it("unmounting mid-run aborts nothing: the answered tool finishes and the session ends done", async () => {
    let release!: () => void;
    const w = edgeWorld({ answered: new Promise<void>((r) => (release = r)) });
    const session = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: memoryWebStorage() });
    const screen = await render(<Chat session={session} />);
    await screen.getByRole("textbox", { name: "Message" }).fill("which city?");
    await screen.getByRole("button", { name: "Send" }).click();
    await screen.getByRole("textbox", { name: "Your answer" }).fill("Pune");
    await screen.getByRole("button", { name: "Answer" }).click();
    await expect.element(screen.getByTestId("status")).toHaveTextContent("streaming");
    await screen.unmount();
    const ended = new Promise<RunSessionState>((resolve) =>
      session.subscribe((s) => (s.status === "done" || s.status === "error") && resolve(s)),
    );
    release();
    const state = await ended;
    expect(state.status).toBe("done");
    expect(state.messages.at(-1)).toEqual({ role: "assistant", text: "Done: city Pune" });
    expect(w.executions).toEqual(["ask_city:Pune"]);
  });

  it("a reload under StrictMode restores the open question once, and it can be answered", async () => {
    const w = edgeWorld();
    const storage = memoryWebStorage();
    const first = await render(<Chat endpoint="/api/run" fetch={w.fetch} storage={storage} />);
    await first.getByRole("textbox", { name: "Message" }).fill("which city?");
    await first.getByRole("button", { name: "Send" }).click();
    await expect.element(first.getByRole("group", { name: "Which city?" })).toBeInTheDocument();
    await first.unmount(); // the tab goes away

    const { restores, fetch } = counted(w);
    const page = await render(<Chat endpoint="/api/run" fetch={fetch} storage={storage} />, { wrapper: StrictMode });
    await expect.element(page.getByRole("group", { name: "Which city?" })).toBeInTheDocument();
    await expect.element(page.getByText("which city?", { exact: true })).toBeInTheDocument();
    expect(restores).toHaveLength(1); // StrictMode's second effect does not restore again
    await page.getByRole("textbox", { name: "Your answer" }).fill("Goa");
    await page.getByRole("button", { name: "Answer" }).click();
    await expect.element(page.getByText("Done: city Goa")).toBeInTheDocument();
    expect(w.executions).toEqual(["ask_city:Goa"]);
  });

  it('storage: "local" keeps the open run in localStorage; a call waiting on the user is `waiting`', async () => {
    localStorage.removeItem("toolnexus:run-session");
    try {
      const w = edgeWorld();
      const { result, act, unmount } = await renderHook(() =>
        useRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: "local", restoreOnMount: false }),
      );
      await act(() => result.current.send("which city?"));
      await expect.poll(() => result.current.state.status).toBe("waiting");
      expect(result.current.state.calls.map((c) => [c.name, c.status])).toEqual([["ask_city", "waiting"]]);
      const kept = JSON.parse(localStorage.getItem("toolnexus:run-session") ?? "null") as { runId?: string } | null;
      expect(kept?.runId).toBe(result.current.state.runId);
      await unmount();
      // a reload (a new component) finds it in localStorage and shows the question again
      const again = await renderHook(() => useRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: "local" }));
      await expect.poll(() => again.result.current.state.requests.length).toBe(1);
      await again.unmount();
    } finally {
      localStorage.removeItem("toolnexus:run-session");
    }
  });

  it("renderHook: one session across re-renders, stable actions, stop ends the stream", async () => {
    let release!: () => void;
    const w = edgeWorld({ answered: new Promise<void>((r) => (release = r)) });
    const storage = memoryWebStorage();
    const { result, rerender, act, unmount } = await renderHook(() =>
      useRunSession({ endpoint: "/api/run", fetch: w.fetch, storage, restoreOnMount: false }),
    );
    const { send, answer } = result.current;
    await act(() => send("which city?"));
    await expect.poll(() => result.current.state.status).toBe("waiting");
    await rerender();
    expect(result.current.send).toBe(send);
    expect(result.current.answer).toBe(answer);
    const [request] = result.current.state.requests;
    await act(() => {
      void answer({ id: request!.id, ok: true, data: { output: "Agra" } });
    });
    await expect.poll(() => result.current.state.status).toBe("streaming");
    await act(() => result.current.stop());
    release();
    await expect.poll(() => result.current.state.status).not.toBe("streaming");
    expect(result.current.state.text).toBe("");
    await unmount();
  });

  it("a given session: the hook follows a switch to another, restoring each once; actions go to the current one", async () => {
    const w = edgeWorld();
    const restored: string[] = [];
    const made = (name: string) => {
      const session = createRunSession({ endpoint: "/api/run", fetch: w.fetch, storage: memoryWebStorage() });
      const restore = session.restore;
      session.restore = () => {
        restored.push(name);
        return restore();
      };
      return session;
    };
    const a = made("a");
    const b = made("b");
    const { result, rerender, act, unmount } = await renderHook((s?: RunSession) => useRunSession({ session: s! }), {
      initialProps: a,
    });
    await expect.poll(() => restored).toEqual(["a"]);
    await act(() => result.current.send("hello there"));
    await expect.poll(() => result.current.state.status).toBe("done");
    await rerender(b);
    expect(result.current.state).toBe(b.state);
    await rerender(b);
    expect(restored).toEqual(["a", "b"]);
    await act(() => result.current.send("second"));
    await expect.poll(() => b.state.status).toBe("done");
    expect(a.state.messages).toHaveLength(2); // the send after the switch went to b
    expect(b.state.messages.map((m) => m.text)).toEqual(["second", "You said: second"]);
    await unmount();
  });
});
