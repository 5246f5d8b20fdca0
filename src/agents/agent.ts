// `agent(name, options)`: an agent is a tool — a soul, a toolkit (its tools, and `task` when it has a team) and
// the client's loop. `run`, `stream` and `resume` are client runs of the agent at the root of its tree
// (`root/<name>.1`); `asTool` runs it as another run's tool.
import { handedSignal } from "../_internal/signals";
import { ConfigError } from "../errors";
import { preview } from "./_text";
import type { Tool } from "../tools/types";
import { clientOf, type Level } from "./level";
import { levelOptions, resumeLevel, runLevel, streamLevel, taskResultOf } from "./task";
import type { Agent, AgentOptions } from "./types";

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

function checkOptions(name: unknown, options: AgentOptions): void {
  if (typeof name !== "string" || !NAME.test(name))
    throw new ConfigError(
      "name",
      `toolnexus: agent name must be 1 to 64 of A-Z a-z 0-9 _ - (not starting with a digit or -), got ${preview(name)}`,
    );
  if (typeof options?.does !== "string" || options.does === "")
    throw new ConfigError(
      "does",
      `toolnexus: agent "${name}" needs does — one line saying what it does, got ${preview(options?.does)}`,
    );
  const { team, waitFor, soul, model, onMetric } = options;
  if (team !== undefined && !Array.isArray(team))
    throw new ConfigError("team", `toolnexus: agent "${name}": team must be an array of agents, got ${preview(team)}`);
  team?.forEach((m, i) => {
    if (typeof m !== "string" && (typeof m !== "object" || m === null || typeof (m as Agent).name !== "string"))
      throw new ConfigError(
        `team[${i}]`,
        `toolnexus: agent "${name}": team[${i}] must be an agent from agent() or an agent's name, got ${preview(m)}`,
      );
  });
  if (waitFor !== undefined && typeof waitFor !== "function")
    throw new ConfigError("waitFor", `toolnexus: agent "${name}": waitFor must be a function, got ${preview(waitFor)}`);
  if (onMetric !== undefined && typeof onMetric !== "function")
    throw new ConfigError(
      "onMetric",
      `toolnexus: agent "${name}": onMetric must be a function, got ${preview(onMetric)}`,
    );
  if (soul !== undefined && typeof soul !== "string")
    throw new ConfigError("soul", `toolnexus: agent "${name}": soul must be a string, got ${preview(soul)}`);
  if (model !== undefined && (typeof model !== "string" || model === ""))
    throw new ConfigError(
      "model",
      `toolnexus: agent "${name}": model must be a model name or "inherit", got ${preview(model)}`,
    );
}

/** Defines an agent (the family's level-1 surface). */
export function agent(name: string, options: AgentOptions): Agent {
  checkOptions(name, options);
  const opts = Object.freeze({ ...options, ...(options.team ? { team: [...options.team] } : {}) });
  const rootOf = (client: Level["client"]): Level => ({ agent: self, client, path: ["root", `${name}.1`] });
  const self: Agent = {
    name,
    does: opts.does,
    options: opts,
    run: (prompt, ro) => runLevel(rootOf(clientOf(`${name}.run`, ro)), prompt, ro.signal ? { signal: ro.signal } : {}),
    stream: (prompt, ro) =>
      streamLevel(rootOf(clientOf(`${name}.stream`, ro)), prompt, ro.signal ? { signal: ro.signal } : {}),
    resume: (runId, answer, ro) => {
      const client = clientOf(`${name}.resume`, ro);
      const { token, tokens, signal } = ro;
      return resumeLevel(rootOf(client), runId, answer, {
        ...(token === undefined ? {} : { token }),
        ...(tokens === undefined ? {} : { tokens }),
        ...(signal === undefined ? {} : { signal }),
      });
    },
    asTool: (to) => {
      const client = clientOf(`${name}.asTool`, to);
      return asTool(self, () => rootOf(client));
    },
    runOptions: (client) => levelOptions(rootOf(clientOf(`${name}.runOptions`, { client }))),
  };
  return self;
}

/**
 * The agent as a tool: `{ prompt }` in, its final text out, metadata `{ agent, turns, totalTokens }`. Each
 * call runs on a level of its own (a level holds what its one run wrote of its tree).
 */
function asTool(self: Agent, level: () => Level): Tool {
  return {
    name: self.name,
    description: self.does,
    inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    source: "agent",
    async execute(args, ctx) {
      const signal = handedSignal(ctx);
      const result = await runLevel(level(), String(args.prompt ?? ""), {
        traceParent: ctx.traceParent,
        ...(signal ? { signal } : {}),
      });
      const r = taskResultOf(result);
      const metadata = { agent: self.name, turns: r.turns, totalTokens: r.totalTokens };
      if (r.status === "done") return { output: r.text, isError: false, metadata };
      return { output: `[${r.status}] ${r.text}`, isError: true, metadata };
    },
  };
}
