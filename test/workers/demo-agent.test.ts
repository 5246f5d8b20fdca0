// workerd: the demo Worker's agent (`/?agent`, endpoint /api/agent) on its scripted model. The planner
// delegates to the booker, whose approval reaches the page with data.path; the page's restore (a reload)
// finds it open, and the approval books the table once. The same flow in Chromium is in test/demo/scenarios-asking.mjs.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

type Done = {
  type: string;
  result?: { status: string; runId: string; token?: string; text: string; pending: Pending };
};
type Pending = { id: string; prompt: string; data?: { path?: string[] } };

const post = (body: unknown) =>
  SELF.fetch("http://demo.test/api/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The `done` event of a run's stream. */
async function doneOf(response: Response): Promise<NonNullable<Done["result"]>> {
  const events = (await response.text())
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as Done);
  const done = events.find((e) => e.type === "done");
  if (!done?.result) throw new Error("the run's stream has no done event");
  return done.result;
}

const booked = async () =>
  ((await (await SELF.fetch("http://demo.test/api/stats")).json()) as Record<string, number>).book_table ?? 0;

describe("the demo Worker: an agent", () => {
  it("the booker's approval reaches the page with its path, survives a reload, and books once", async () => {
    const page = await (await SELF.fetch("http://demo.test/?agent")).text();
    expect(page).toContain('endpoint="/api/agent"');
    const before = await booked();

    const asked = await doneOf(await post({ prompt: "Book dinner for two tonight" }));
    expect(asked.status).toBe("pending");
    expect(asked.pending.data?.path).toEqual(["root", "planner.1", "booker.1"]);
    expect(asked.pending.prompt).toBe("Book a table for 2 at Dakshin, 19:30 tonight?");

    const restore = await SELF.fetch(`http://demo.test/api/agent?runId=${asked.runId}`);
    const open = (await restore.json()) as { requests?: { id: string }[] };
    expect(open.requests?.map((r) => r.id)).toEqual([asked.pending.id]);

    const answer = { id: asked.pending.id, ok: true, data: { output: "approved" } };
    const done = await doneOf(await post({ runId: asked.runId, answer, token: asked.token }));
    expect(done.status).toBe("done");
    expect(done.text).toMatch(/^The booker says: Done! Your table for 2 at Dakshin is booked/);
    expect(await booked()).toBe(before + 1);
  }, 30_000);
});
