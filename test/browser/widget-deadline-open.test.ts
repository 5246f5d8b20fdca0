// A page left open while its question's deadline passes (semantics 8): the element restores the run once at
// the deadline, so the card gives way to the run as it went on by itself — no reload. The page's timer and
// the client's clock both read the (faked) system clock, which the test moves past the deadline.
import { afterEach, describe, expect, it, vi } from "vitest";
import { card, idle, mount, shadow, until, widgetWorld } from "./widget-world";

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe("<toolnexus-chat> at a question's deadline", () => {
  it("shows the continued run's reply when the deadline passes; the tool never ran", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], shouldAdvanceTime: true });
    const world = widgetWorld({ clock: { now: () => Date.now() }, answerTimeoutSeconds: 60 });
    const chat = mount(world);
    await chat.send("which city?");
    await idle(chat);
    expect(card(chat, "question")!.querySelector("[part~=deadline]")!.textContent).toMatch(/^Expires in/);

    vi.advanceTimersByTime(61_000);
    await until(chat, () => chat.session!.state.status === "done");
    const replies = [...shadow(chat).querySelectorAll("[part~=assistant-message]:not([part~=live])")];
    expect(replies.at(-1)!.textContent).toBe("Done: declined/expired: Which city? (options: Chennai, Lisbon)");
    expect(card(chat, "question")).toBeNull();
    expect(world.executions).toEqual([]);
  });
});
