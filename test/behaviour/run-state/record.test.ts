// The frozen v1 run records (test/fixtures/run-state) must load and resume in every release.
import { describe, expect, it } from "vitest";
import {
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  pending,
  relayAnswer,
  relayTool,
  RunConflictError,
  RunStateError,
} from "toolnexus";
import * as openaiFixture from "../../fixtures/run-state/v1-openai-two-suspensions";
import * as relayFixture from "../../fixtures/run-state/v1-anthropic-relay";
import * as doneFixture from "../../fixtures/run-state/v1-openai-done";
import { sha256Hex } from "../../support/internals";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";

const counts: Record<string, number> = {};
const tools = [
  defineTool({
    name: "ask_city",
    description: "asks",
    execute: (_a, ctx) => (
      (counts.ask_city = (counts.ask_city ?? 0) + 1),
      ctx?.answer ? `city=${ctx.answer.data?.output}` : pending({ kind: "input", prompt: "Which city?", id: "q-city" })
    ),
  }),
  defineTool({
    name: "clock",
    description: "time",
    execute: () => ((counts.clock = (counts.clock ?? 0) + 1), "12:00"),
  }),
  defineTool({
    name: "approve",
    description: "approval",
    inputSchema: { type: "object", properties: { when: { type: "string" } } },
    execute: (a, ctx) =>
      ctx?.answer ? `booked ${a.when}` : pending({ kind: "approval", prompt: "Book it?", id: "q-book" }),
  }),
  relayTool("lookup", "host lookup", { type: "object", properties: { q: { type: "string" } } }),
];

/** A client of `style` (its model answering through `fetch`) over a storage holding `fixture`'s frozen record. */
async function storedFixture(
  fixture: { runId: string; record: string },
  style: "openai" | "anthropic",
  fetch = scripted(style, []).fetch,
) {
  const storage = memoryStorage();
  await storage.set(`run:${fixture.runId}`, fixture.record);
  const client = createClient({ baseUrl: "https://llm.test", style, model: "fixture-model", fetch, storage });
  return { storage, client };
}

describe("run-state v1 fixtures", () => {
  it("an OpenAI record with two suspensions and a finished call resumes to a balanced turn", async () => {
    const s = scripted("openai", [(b) => ({ text: toolResultsIn(b).join("|") })]);
    const { client } = await storedFixture(openaiFixture, "openai", s.fetch);
    const mid = asPending(await client.resume(openaiFixture.runId, answerOutput("q-city", "Ooty"), { toolkit: tools }));
    expect(mid.pending.id).toBe("q-book");
    const done = await client.resume(openaiFixture.runId, { id: "q-book", ok: true }, { toolkit: tools });
    expect(done.text).toBe("city=Ooty|12:00|booked now");
    expect(counts.clock).toBeUndefined(); // finished before the halt: never run again
    expect(s.bodies[0]!.messages[0]).toEqual({ role: "system", content: "You plan trips." });
  });

  it("an Anthropic relay record resumes with relayAnswer", async () => {
    const requestId = JSON.parse(relayFixture.record).calls[0].request.id as string;
    const s = scripted("anthropic", [(b) => ({ text: toolResultsIn(b).join("|") })]);
    const { client } = await storedFixture(relayFixture, "anthropic", s.fetch);
    const done = await client.resume(
      relayFixture.runId,
      relayAnswer(requestId, [
        { id: "toolu_1", output: "A" },
        { id: "toolu_2", output: "B" },
      ]),
      { toolkit: tools },
    );
    expect(done.text).toBe("A|B");
    expect(s.bodies[0]!.system).toBe("You plan trips.");
  });

  it("a record from a client of the other style is refused without changes", async () => {
    const { storage, client } = await storedFixture(relayFixture, "openai"); // the record is Anthropic's
    await expect(client.resume(relayFixture.runId, answerOutput("x", "y"))).rejects.toThrow(RunStateError);
    expect(await storage.get(`run:${relayFixture.runId}`)).toBe(relayFixture.record);
  });

  it("a finished record in 0.1.0's layout gives its kept outcome back for the same answer, and refuses another", async () => {
    const { storage, client } = await storedFixture(doneFixture, "openai");
    const again = await client.resume(doneFixture.runId, answerOutput("q-city", "Oslo"), { toolkit: tools });
    expect(again).toEqual(JSON.parse(doneFixture.record).result);
    await expect(client.resume(doneFixture.runId, answerOutput("q-city", "Rome"), { toolkit: tools })).rejects.toThrow(
      RunConflictError,
    );
    expect(await storage.get(`run:${doneFixture.runId}`)).toBe(doneFixture.record);
  });

  it("a finished run keeps its outcome without storing the transcript twice, and gives it back whole", async () => {
    const storage = memoryStorage();
    const history = [
      { role: "user", content: "marker-3f9c: an earlier question" },
      { role: "assistant", content: "an earlier answer" },
    ];
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text: "Lima it is." }]);
    const client = createClient({ baseUrl: "https://llm.test", style: "openai", model: "m", fetch: s.fetch, storage });
    const halted = asPending(await client.run("Plan a trip", { toolkit: tools, history }));
    const first = await client.resume(halted.runId, answerOutput("q-city", "Lima"), { toolkit: tools });
    const stored = (await storage.get(`run:${halted.runId}`))!;
    expect(JSON.parse(stored).status).toBe("done");
    expect(stored.split("marker-3f9c")).toHaveLength(2);
    // the halt's transcript stays where the halt wrote it; the kept outcome adds only what came after
    const kept = JSON.parse(stored);
    expect(kept.messages.length).toBeGreaterThan(2);
    expect([...kept.messages, ...kept.result.messages]).toEqual(first.messages);
    expect(first.messages.map((m) => (m as { content?: unknown }).content)).toContain(
      "marker-3f9c: an earlier question",
    );
    const again = await client.resume(halted.runId, answerOutput("q-city", "Lima"), { toolkit: tools });
    expect(again).toEqual(first);
    expect(s.bodies).toHaveLength(2);
  });

  it("a long record is edited like a short one: the kept outcome lists only the messages after the stored ones", async () => {
    const storage = memoryStorage();
    const history = [
      { role: "user", content: `long-1b7e ${"x".repeat(140_000)}` },
      { role: "assistant", content: "noted" },
    ];
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text: "Kyiv it is." }]);
    const client = createClient({ baseUrl: "https://llm.test", style: "openai", model: "m", fetch: s.fetch, storage });
    const halted = asPending(await client.run("Plan a trip", { toolkit: tools, history }));
    const first = await client.resume(halted.runId, answerOutput("q-city", "Kyiv"), { toolkit: tools });
    const kept = JSON.parse((await storage.get(`run:${halted.runId}`))!);
    expect(kept.status).toBe("done");
    expect([...kept.messages, ...kept.result.messages]).toEqual(first.messages);
    expect(kept.result.messages.length).toBeLessThan(first.messages.length);
    expect(await client.resume(halted.runId, answerOutput("q-city", "Kyiv"), { toolkit: tools })).toEqual(first);
  });

  it("a record not in the SDK's own key order is serialized again at the claim and at the end, with the same outcome", async () => {
    const storage = memoryStorage();
    const s = scripted("openai", [{ calls: [{ name: "ask_city" }] }, { text: "Kyiv it is." }]);
    const client = createClient({ baseUrl: "https://llm.test", style: "openai", model: "m", fetch: s.fetch, storage });
    const halted = asPending(await client.run("Plan a trip", { toolkit: tools }));
    const key = `run:${halted.runId}`;
    const { v, ...rest } = JSON.parse((await storage.get(key))!);
    await storage.set(key, JSON.stringify({ ...rest, v })); // same record, "v" last: the head cannot be edited
    const first = await client.resume(halted.runId, answerOutput("q-city", "Kyiv"), { toolkit: tools });
    const kept = JSON.parse((await storage.get(key))!);
    expect(kept).toMatchObject({ status: "done", messages: [] });
    expect(kept.result.messages).toEqual(first.messages);
    expect(await client.resume(halted.runId, answerOutput("q-city", "Kyiv"), { toolkit: tools })).toEqual(first);
  });

  it("no secret and no function ever reaches a record", () => {
    for (const raw of [openaiFixture.record, relayFixture.record, doneFixture.record]) {
      expect(raw).not.toContain("sk-never-stored");
      expect(JSON.parse(raw).v).toBe(1);
    }
  });
});

describe("answer digests (SHA-256)", () => {
  it("matches the FIPS 180-4 test vectors, over the UTF-8 bytes of the text", async () => {
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(await sha256Hex("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  });
});
