// The runtime's `task` tool: spawn → wake → wait → close, fused; a re-invoked call reattaches to the child
// with its task key (`<agent>:<prompt>`) — settled: its recorded result; suspended: its pending (or, with an
// answer from an interpreter above it, the child resumed inline); running: awaited — never a duplicate spawn.
import { pending } from "../pending";
import { errorText } from "./_text";
import { taskDeclaration } from "./task-declaration";
import type { ToolResult } from "../types";
import type { Tool, ToolContext } from "../tools/types";
import type { Handle, RuntimeVerbs } from "./handle";
import type { TaskResult } from "./types";

const nameOf = (m: unknown): string => (typeof m === "string" ? m : String((m as { name?: unknown }).name));

/** A child's outcome as the parent's model sees it. */
function presented(agent: string, r: TaskResult): ToolResult {
  const metadata = { agent, turns: r.turns, totalTokens: r.totalTokens };
  if (r.status === "done") return { output: r.text, isError: false, metadata };
  return { output: `[${r.status}] ${r.text}`, isError: true, metadata };
}

/** The child a call delegates to: the one with its task key (reattached), else a new one woken with the prompt. */
async function delegated(parent: Handle, verbs: RuntimeVerbs, name: string, prompt: string, ctx: ToolContext) {
  const { answer, traceParent } = ctx;
  const key = `${name}:${prompt}`;
  const existing = parent.children.find((c) => c.taskKey === key);
  if (existing) {
    existing.traceParent = traceParent;
    verbs.t(`${parent.id}: task replay → REATTACH to ${existing.id} (state ${existing.state})`);
    if (existing.state === "suspended" && answer) {
      verbs.start(existing, { answer: answer as never }, "answer");
      return { child: existing, r: await verbs.wait(existing.id) };
    }
    return { child: existing, r: await verbs.wait(existing.id) };
  }
  const child = verbs.spawn(parent, name);
  child.taskKey = key;
  child.traceParent = traceParent;
  const done = verbs.wait(child.id);
  verbs.wake(child, prompt);
  return { child, r: await done };
}

export function runtimeTask(parent: Handle, verbs: RuntimeVerbs): Tool {
  const team = (parent.agent.options.team ?? []).map(nameOf).sort();
  const described = (parent.agent.options.team ?? [])
    .map((m) => (typeof m === "string" ? m : `${m.name}: ${m.does}`))
    .sort();
  return {
    ...taskDeclaration(described),
    async execute(args, ctx) {
      const name = String(args.agent ?? "");
      const prompt = String(args.prompt ?? "");
      if (!team.includes(name))
        return {
          output: `agent "${name}" not in this agent's team (${team.length ? team.join(", ") : "none"})`,
          isError: true,
        };
      let found: Awaited<ReturnType<typeof delegated>>;
      try {
        found = await delegated(parent, verbs, name, prompt, ctx);
      } catch (error) {
        return { output: errorText(error), isError: true };
      }
      const { child, r } = found;
      if (r.status === "pending") return pending(r.pending!, { state: { child: child.id } });
      await verbs.close(child);
      return presented(name, r);
    },
  };
}
