// The `task` tool and asTool: only an agent with a team gets `task`; its description lists the team sorted,
// `<name>: <does>`; an out-of-team target is an error result listing the team; a child that does not finish
// reaches the parent's model as `[<status>] <text>` with isError; usage rolls up; an agent as a tool answers
// its final text with `{ agent, turns, totalTokens }`.
import { ConfigError, defineTool, memoryStorage, type GenerateRequest, type StreamEvent } from "toolnexus";
import { agent } from "toolnexus/agents";
import { describe, expect, it } from "vitest";
import { clientOn, type Counts } from "./support";

const counts = (): Counts => ({ calls: {}, booked: [] });
const lookup = defineTool({
  name: "lookup",
  description: "looks up",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: (args) => `data(${String(args.q)})`,
});
const explorer = () => agent("explore", { does: "read-only research", model: "m-explore", tools: [lookup] });

/** The family's fan-out: two task calls in one turn, each child one lookup, then the parent joins them. */
const fanout = (declared: unknown[][]) => ({
  "m-coord": (req: GenerateRequest, tools: string[]) => {
    declared.push(req.tools ?? []);
    return tools.length === 0
      ? {
          toolCalls: [
            { id: "t1", name: "task", arguments: { agent: "explore", prompt: "find A" } },
            { id: "t2", name: "task", arguments: { agent: "explore", prompt: "find B" } },
          ],
        }
      : { content: `synthesis: ${tools.join(" + ")}` };
  },
  "m-explore": (_req: GenerateRequest, tools: string[]) =>
    tools.length === 0
      ? { toolCalls: [{ id: "l1", name: "lookup", arguments: { q: "x" } }] }
      : { content: `found:${tools[0]}` },
});

describe("the task tool", () => {
  it("a new run's two delegations store their children by value: ids in order, results kept, one write each", async () => {
    const c = counts();
    const inner = memoryStorage();
    const ops: string[] = [];
    const storage = {
      ...inner,
      get: (key: string) => (ops.push(`get ${key}`), inner.get(key)),
      compareAndSet: (key: string, expected: string | undefined, value: string, o?: { ttlSeconds?: number }) => (
        ops.push(`cas ${key}`), inner.compareAndSet!(key, expected, value, o)
      ),
    };
    const coordinator = agent("coordinator", { does: "splits", model: "m-coord", team: [explorer()] });
    const r = await coordinator.run("answer using two lookups", { client: clientOn(storage, c, fanout([])) });
    expect(r.text).toBe("synthesis: found:data(x) + found:data(x)");
    // the tree of the new run is written once per settled child, and never read first
    const tree = ops.filter((o) => o.includes(" agents:"));
    expect(tree.map((o) => o.split(" ")[0])).toEqual(["cas", "cas"]);
    const stored = JSON.parse((await inner.get(tree[0]!.slice(4)))!) as {
      n: Record<string, number>;
      calls: Record<string, { id: string; key: string; result?: { status: string; text: string } }>;
    };
    expect(stored.n).toEqual({ explore: 2 });
    const calls = Object.values(stored.calls).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(calls.map((e) => [e.id, e.key, e.result?.status, e.result?.text])).toEqual([
      ["explore.1", "explore:find A", "done", "found:data(x)"],
      ["explore.2", "explore:find B", "done", "found:data(x)"],
    ]);
  });

  it("fans out: two children, two tool messages, usage rolled up over six model calls", async () => {
    const declared: unknown[][] = [];
    const c = counts();
    const coordinator = agent("coordinator", { does: "splits", model: "m-coord", team: [explorer()] });
    const r = await coordinator.run("answer using two lookups", {
      client: clientOn(memoryStorage(), c, fanout(declared)),
    });
    expect(r.status).toBe("done");
    expect(r.text).toBe("synthesis: found:data(x) + found:data(x)");
    expect(r.turns).toBe(2);
    expect(r.usage.totalTokens).toBe(60);
    expect(r.toolCalls.map((t) => [t.name, t.metadata?.agent, t.metadata?.turns])).toEqual([
      ["task", "explore", 2],
      ["task", "explore", 2],
    ]);
    const task = (declared[0] as { function: { name: string; description: string } }[]).find(
      (t) => t.function.name === "task",
    );
    expect(task?.function.description).toBe(
      "Delegate a subtask to an isolated subagent. Available agents — explore: read-only research",
    );
  });

  it("lists the team sorted; no team, no task tool; an out-of-team target is an error listing the team", async () => {
    const seen: string[] = [];
    const declared: unknown[][] = [];
    const zed = agent("zed", { does: "last", model: "m-explore" });
    const alpha = agent("alpha", { does: "first", model: "m-explore" });
    const lead = agent("lead", { does: "leads", model: "m-lead", team: [zed, alpha] });
    const script = {
      "m-lead": (req: GenerateRequest, tools: string[]) => {
        declared.push(req.tools ?? []);
        if (tools.length) seen.push(...tools);
        return tools.length === 0
          ? { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "ghost", prompt: "boo" } }] }
          : { content: "ok" };
      },
      "m-explore": (req: GenerateRequest) => {
        declared.push(req.tools ?? []);
        return { content: "x" };
      },
    };
    const r = await lead.run("go", { client: clientOn(memoryStorage(), counts(), script) });
    expect(r.status).toBe("done");
    expect(seen).toEqual(['agent "ghost" not in this agent\'s team (alpha, zed)']);
    expect(r.toolCalls[0]?.isError).toBe(true);
    const task = (declared[0] as { function: { name: string; description: string } }[])[0]!;
    expect(task.function.description).toBe(
      "Delegate a subtask to an isolated subagent. Available agents — alpha: first; zed: last",
    );
    await alpha.run("hi", { client: clientOn(memoryStorage(), counts(), script) });
    expect(declared.at(-1)).toEqual([]);
  });

  it("a child that runs out of turns reaches the parent's model as [incomplete] <text>, isError", async () => {
    const seen: string[] = [];
    const looper = agent("looper", { does: "never finishes", model: "m-loop", tools: [lookup] });
    const lead = agent("lead", { does: "leads", model: "m-lead", team: [looper] });
    const script = {
      "m-lead": (_req: GenerateRequest, tools: string[]) => {
        seen.push(...tools);
        return tools.length === 0
          ? { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "looper", prompt: "loop" } }] }
          : { content: "gave up" };
      },
      "m-loop": () => ({ toolCalls: [{ id: "l", name: "lookup", arguments: { q: "again" } }] }),
    };
    const r = await lead.run("go", { client: clientOn(memoryStorage(), counts(), script, { maxTurns: 3 }) });
    expect(r.status).toBe("done");
    expect(seen[0]).toMatch(/^\[incomplete\] /);
    expect(r.toolCalls[0]).toMatchObject({ name: "task", isError: true, metadata: { agent: "looper", turns: 3 } });
  });
});

describe("a definition's budget under agent.run", () => {
  it("maxChildren refuses the spawn past it, maxDepth a child too deep: error results, the run goes on", async () => {
    const seen: string[] = [];
    const fan = fanout([]);
    const script = {
      ...fan,
      "m-coord": (req: GenerateRequest, tools: string[]) => {
        if (tools.length) seen.push(...tools);
        return fan["m-coord"](req, tools);
      },
    };
    const one = agent("coordinator", {
      does: "splits",
      model: "m-coord",
      team: [explorer()],
      budget: { maxChildren: 1 },
    });
    const r = await one.run("go", { client: clientOn(memoryStorage(), counts(), script) });
    expect(r.status).toBe("done");
    expect([...seen].sort()).toEqual(["found:data(x)", "maxChildren 1 exceeded"]); // which of the two is refused: whichever came second
    seen.length = 0;
    const shallow = agent("coordinator", {
      does: "splits",
      model: "m-coord",
      team: [explorer()],
      budget: { maxDepth: 1 },
    });
    await shallow.run("go", { client: clientOn(memoryStorage(), counts(), script) });
    expect(seen).toEqual(["maxDepth 1 exceeded", "maxDepth 1 exceeded"]);
  });

  it("the run's signal reaches its children: aborted while a child works, the child makes no further model call", async () => {
    const c = counts();
    const controller = new AbortController();
    const stop = defineTool({
      name: "stop",
      description: "the user walks away while it runs",
      execute: () => (controller.abort(new Error("walked away")), "stopped"),
    });
    const child = agent("explore", { does: "research", model: "m-explore", tools: [stop] });
    const script = {
      "m-coord": (_req: GenerateRequest, tools: string[]) =>
        tools.length === 0
          ? { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "explore", prompt: "find A" } }] }
          : { content: "joined" },
      "m-explore": (_req: GenerateRequest, tools: string[]) =>
        tools.length === 0 ? { toolCalls: [{ id: "s1", name: "stop", arguments: {} }] } : { content: "found" },
    };
    const lead = agent("coordinator", { does: "splits", model: "m-coord", team: [child] });
    const r = await lead.run("go", { client: clientOn(memoryStorage(), c, script), signal: controller.signal });
    expect(r.status).toBe("incomplete");
    expect(c.calls).toEqual({ "m-coord": 1, "m-explore": 1 });
  });
});

describe("agent() and asTool()", () => {
  it("asTool: source agent, { prompt } in, the final text out with { agent, turns, totalTokens }", async () => {
    const c = counts();
    const client = clientOn(memoryStorage(), c, fanout([]));
    const tool = explorer().asTool({ client });
    expect(tool).toMatchObject({ name: "explore", description: "read-only research", source: "agent" });
    expect(tool.inputSchema).toMatchObject({ required: ["prompt"] });
    const out = await tool.execute({ prompt: "find A" }, { signal: new AbortController().signal } as never);
    expect(out).toEqual({
      output: "found:data(x)",
      isError: false,
      metadata: { agent: "explore", turns: 2, totalTokens: 20 },
    });
  });

  it("stream yields the client's events, its done result rolled up", async () => {
    const client = clientOn(memoryStorage(), counts(), fanout([]));
    const coordinator = agent("coordinator", { does: "splits", model: "m-coord", team: [explorer()] });
    const events: StreamEvent[] = [];
    for await (const e of coordinator.stream("go", { client })) events.push(e);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    expect(done?.type === "done" && done.result.usage.totalTokens).toBe(60);
    expect(events.filter((e) => e.type === "tool_result").length).toBe(2);
  });

  it("bad definitions and a missing client are ConfigErrors naming the option", () => {
    // the classes of the subpath build are the core's own: one copy of the core, whichever way it is loaded
    let thrown: unknown;
    try {
      agent("", { does: "x" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toMatchObject({ name: "ConfigError", code: "config", option: "name" });
    expect(() => agent("a", { does: "" })).toThrow(/needs does/);
    expect(() => agent("a", { does: "x", team: [42] as never })).toThrow(/team\[0\]/);
    expect(() => agent("a", { does: "x" }).run("go", {} as never)).toThrow(/needs \{ client \}/);
  });
});
