// defineTool({ needsApproval, approvalPrompt }): the approval asks in the tool's own words — a string, or a
// function of the checked arguments — and a declined one reports those words to the model; without it, or
// when the function fails, the generic "Approve running the tool <name>?".
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { answerDeclined, ConfigError, createClient, defineTool, memoryStorage } from "toolnexus";
import { asPending } from "../../support/results";
import { scripted, toolResultsIn } from "../../support/scripted";

const ARGS = { version: "v42", env: "production" };

function deploy(approvalPrompt?: unknown) {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "deploy",
    description: "Deploys a release",
    inputSchema: v.object({ version: v.string(), env: v.string() }),
    needsApproval: true,
    ...(approvalPrompt === undefined ? {} : { approvalPrompt: approvalPrompt as string }),
    execute: (args) => (ran.push(args), `deployed ${args.version}`),
  });
  return { tool, ran };
}

async function halted(approvalPrompt?: unknown) {
  const s = scripted("openai", [
    { calls: [{ name: "deploy", args: ARGS }] },
    (body) => ({ text: `tool said: ${toolResultsIn(body)[0]}` }),
  ]);
  const client = createClient({
    baseUrl: "http://127.0.0.1:9",
    style: "openai",
    model: "m",
    fetch: s.fetch,
    storage: memoryStorage(),
  });
  const { tool, ran } = deploy(approvalPrompt);
  const result = asPending(await client.run("ship it", { toolkit: [tool] }));
  return { client, tool, ran, result };
}

describe("approvalPrompt", () => {
  it("default: the generic prompt naming the tool", async () => {
    const { result } = await halted();
    expect(result.pending).toMatchObject({ kind: "approval", prompt: "Approve running the tool deploy?" });
  });

  it("a string is the prompt", async () => {
    const { result } = await halted("Ship this release?");
    expect(result.pending.prompt).toBe("Ship this release?");
  });

  it("a function of the typed arguments words it; a declined approval reports those words, the tool never runs", async () => {
    const { client, tool, ran, result } = await halted(
      (args: { version: string; env: string }) => `Deploy ${args.version} to ${args.env}?`,
    );
    expect(result.pending.prompt).toBe("Deploy v42 to production?");
    expect(result.pending.data).toEqual({ tool: "deploy", args: ARGS, rememberable: true });
    const done = await client.resume(result.runId, answerDeclined(result.pending.id, "declined", "not today"), {
      toolkit: [tool],
    });
    expect(done.text).toBe("tool said: declined/expired: Deploy v42 to production? — not today");
    expect(ran).toEqual([]);
  });

  it("a function that throws or returns no words gives the generic prompt", async () => {
    for (const prompt of [
      () => {
        throw new Error("boom");
      },
      () => "",
    ]) {
      const { result } = await halted(prompt);
      expect(result.pending.prompt).toBe("Approve running the tool deploy?");
    }
  });

  it("anything but a string or a function is a ConfigError naming the option", () => {
    let error: unknown;
    try {
      deploy(42);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).option).toBe("approvalPrompt");
  });
});
