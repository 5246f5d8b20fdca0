// needsApproval: a call waits for an approval before it runs — inline and durable, on every wire, run and
// stream; approve ⇒ it runs once with those arguments, decline/expire ⇒ it never runs.
import { describe, expect, it } from "vitest";
import {
  answerDeclined,
  answerOutput,
  createClient,
  defineTool,
  memoryStorage,
  relayAnswer,
  relayTool,
  type PendingRequest,
  type Tool,
} from "toolnexus";
import { MODES, resumeIn, runIn, ALL_STYLES } from "../../support/drive";
import { scripted, toolResultsIn } from "../../support/scripted";
import { asPending } from "../../support/results";

const deployTool = (needsApproval: boolean | ((args: { env: string }) => boolean) = true) => {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "deploy",
    description: "Deploys a build",
    inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    needsApproval: needsApproval as boolean,
    execute: (args) => (ran.push(args), `deployed to ${String(args.env)}`),
  });
  return { tool, ran };
};

const script = (style: (typeof ALL_STYLES)[number]) =>
  scripted(style, [
    { calls: [{ name: "deploy", args: { env: "prod" } }] },
    (body) => ({ text: `tool said: ${toolResultsIn(body)[0]}` }),
  ]);

for (const style of ALL_STYLES) {
  for (const mode of MODES) {
    describe(`needsApproval (${style}, ${mode})`, () => {
      const base = { baseUrl: "http://127.0.0.1:9", style, model: "m", apiKey: "k" };

      it("inline: the approval Request names the tool and its arguments; approving runs it once", async () => {
        const { tool, ran } = deployTool();
        const asked: PendingRequest[] = [];
        const s = script(style);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async (r) => (asked.push(r), answerOutput(r.id, "yes")),
        });
        const { result } = await runIn(client, mode, "ship it", { toolkit: [tool] });
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatchObject({ kind: "approval", data: { tool: "deploy", args: { env: "prod" } } });
        expect(asked[0]!.prompt).toContain("deploy");
        expect(ran).toEqual([{ env: "prod" }]);
        expect(result.text).toBe("tool said: deployed to prod");
      });

      it("inline: declining never runs the tool, and the model is told", async () => {
        const { tool, ran } = deployTool();
        const s = script(style);
        const client = createClient({ ...base, fetch: s.fetch, waitFor: async (r) => answerDeclined(r.id) });
        const { result } = await runIn(client, mode, "ship it", { toolkit: [tool] });
        expect(ran).toEqual([]);
        expect(result.text).toMatch(/^tool said: declined\/expired: .*deploy/);
      });

      it("durable: halts with the approval; resuming approved runs it once, declined never", async () => {
        for (const approve of [true, false]) {
          const { tool, ran } = deployTool();
          const s = script(style);
          const storage = memoryStorage();
          const client = createClient({ ...base, fetch: s.fetch, storage });
          const halted = asPending((await runIn(client, mode, "ship it", { toolkit: [tool] })).result);
          expect(halted.pending.kind).toBe("approval");
          expect(halted.requests).toEqual([halted.pending]);
          expect(ran).toEqual([]);
          const answer = approve ? answerOutput(halted.pending.id, "ok") : answerDeclined(halted.pending.id);
          const fresh = createClient({ ...base, fetch: s.fetch, storage });
          const { result } = await resumeIn(fresh, mode, halted.runId, answer, { toolkit: [deployTool().tool] });
          expect(result.status).toBe("done");
          expect(result.text).toMatch(approve ? "tool said: deployed to prod" : /declined\/expired: /);
        }
      });

      it("a predicate decides per call: a call it passes runs without asking", async () => {
        const { tool, ran } = deployTool((args) => args.env === "prod");
        const s = scripted(style, [{ calls: [{ name: "deploy", args: { env: "staging" } }] }, { text: "done" }]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async () => Promise.reject(new Error("asked")),
        });
        await runIn(client, mode, "ship it", { toolkit: [tool] });
        expect(ran).toEqual([{ env: "staging" }]);
      });

      it("the loop gates any Tool: a hand-written one, and a defineTool one given needsApproval afterwards", async () => {
        const ran: string[] = [];
        const handWritten: Tool = {
          name: "deploy",
          description: "Deploys a build",
          inputSchema: { type: "object", properties: { env: { type: "string" } } },
          source: "custom",
          needsApproval: true,
          execute: async (args) => (ran.push(`hand:${String(args.env)}`), { output: "deployed", isError: false }),
        };
        const spread: Tool = { ...deployTool(false).tool, needsApproval: (args) => args.env === "prod" };
        for (const tool of [handWritten, spread]) {
          const s = script(style);
          const storage = memoryStorage();
          const client = createClient({ ...base, fetch: s.fetch, storage });
          const halted = asPending((await runIn(client, mode, "ship it", { toolkit: [tool] })).result);
          expect(halted.pending).toMatchObject({ kind: "approval", data: { tool: "deploy", args: { env: "prod" } } });
          expect(ran).toEqual([]);
          const { result } = await resumeIn(client, mode, halted.runId, answerDeclined(halted.pending.id), {
            toolkit: [tool],
          });
          expect(result.text).toMatch(/declined\/expired: /);
        }
        expect(ran).toEqual([]);
      });

      it("a defineTool predicate sees only checked arguments: a call whose arguments do not check is refused without asking", async () => {
        const seen: unknown[] = [];
        const { tool, ran } = deployTool((args) => (seen.push(args), true));
        const s = scripted(style, [
          { calls: [{ name: "deploy", args: { env: 42 } }] },
          (body) => ({ text: `tool said: ${toolResultsIn(body)[0]}` }),
        ]);
        const client = createClient({
          ...base,
          fetch: s.fetch,
          waitFor: async () => Promise.reject(new Error("asked")),
        });
        const { result } = await runIn(client, mode, "ship it", { toolkit: [tool] });
        expect(result.text).toMatch(/^tool said: Invalid arguments for deploy: /);
        expect(seen).toEqual([]); // the predicate never saw { env: 42 }
        expect(ran).toEqual([]);
      });

      it("a needsApproval predicate that throws is an error result for the model; the tool does not run", async () => {
        const { tool, ran } = deployTool(() => {
          throw new Error("policy service down");
        });
        const s = script(style);
        const client = createClient({ ...base, fetch: s.fetch, waitFor: async (r) => answerOutput(r.id, "ok") });
        const { result } = await runIn(client, mode, "ship it", { toolkit: [tool] });
        expect(result.text).toBe("tool said: policy service down");
        expect(ran).toEqual([]);
      });

      it("a relay tool is approved first, then relayed to the host (inline and durable)", async () => {
        const lookup = relayTool("lookup", "runs in the host", undefined, { needsApproval: true });
        const s = scripted(style, [
          { calls: [{ name: "lookup", args: { q: "tea" } }] },
          (body) => ({ text: `host said: ${toolResultsIn(body)[0]}` }),
        ]);
        const storage = memoryStorage();
        const client = createClient({ ...base, fetch: s.fetch, storage });
        const first = asPending((await runIn(client, mode, "find", { toolkit: [lookup] })).result);
        expect(first.pending.kind).toBe("approval");
        const second = asPending(
          (await resumeIn(client, mode, first.runId, answerOutput(first.pending.id, "ok"), { toolkit: [lookup] }))
            .result,
        );
        expect(second.pending.kind).toBe("tool_call");
        const calls = second.pending.data?.calls as { id: string }[];
        const done = await resumeIn(
          client,
          mode,
          second.runId,
          relayAnswer(second.pending.id, [{ id: calls[0]!.id, output: "green" }]),
          { toolkit: [lookup] },
        );
        expect(done.result.text).toBe("host said: green");
      });
    });
  }
}
