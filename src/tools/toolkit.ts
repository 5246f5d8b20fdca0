// `createToolkit`: the builtins (webfetch, question, todowrite — on by default) followed by the host's tools,
// one name each, declared in every provider's shape. `toToolkit` lets the loop take a plain `Tool[]` too.
import { toAnthropic, toGemini, toOpenAI } from "./declarations";
import { BUILTIN_NAMES, builtinTools, type BuiltinsOption } from "./builtins/index";
import { ConfigError, isToolnexusError } from "../errors";
import { isPlainObject } from "../_internal/json";
import type { FetchFn } from "./http-tool";
import { badOption, thrownMessage, toolContext } from "./tool";
import type { Tool, Toolkit, ToolkitLike } from "./types";

export interface ToolkitOptions {
  /** The host's tools. One named like a builtin replaces that builtin. */
  tools?: readonly Tool[];
  /** Default: all on. `false` turns them all off; `{ question: false }` turns one off. */
  builtins?: BuiltinsOption;
  /** The fetch `webfetch` uses. Default: `globalThis.fetch`, looked up at call time. */
  fetch?: FetchFn;
}

/** Builtins, then host tools; a host tool named like a builtin replaces it. */
/* @__NO_SIDE_EFFECTS__ */
export async function createToolkit(options: ToolkitOptions = {}): Promise<Toolkit> {
  const hostTools = checkTools("createToolkit", options.tools ?? []);
  const { builtins } = options;
  if (!(builtins === undefined || typeof builtins === "boolean" || isPlainObject(builtins)))
    throw badOption("createToolkit", "builtins", "a boolean or an object such as { question: false }", builtins);
  if (options.fetch !== undefined && typeof options.fetch !== "function")
    throw badOption("createToolkit", "fetch", "a function", options.fetch);
  const collisions = hostTools
    .filter((t) => t.source === "relay" && (BUILTIN_NAMES as readonly string[]).includes(t.name))
    .map((t) => t.name);
  if (collisions.length) {
    throw new ConfigError(
      "tools",
      `toolnexus: relay tool name collides with a built-in tool: [${[...new Set(collisions)].sort().join(", ")}] — rename the relay tool (the guard applies even with builtins disabled, so a future builtin cannot capture a declaration-only tool)`,
    );
  }
  const kept = builtinTools(builtins, options.fetch).filter((t) => !hostTools.some((h) => h.name === t.name));
  return toolkitOf([...kept, ...hostTools]);
}

function checkTools(fn: string, tools: unknown): Tool[] {
  if (!Array.isArray(tools)) throw badOption(fn, "tools", "an array of tools", tools);
  tools.forEach((t: Partial<Tool> | null, i) => {
    if (typeof t?.name !== "string" || typeof t.execute !== "function" || typeof t.inputSchema !== "object")
      throw badOption(fn, `tools[${i}]`, "a tool (build it with defineTool())", t);
  });
  return tools as Tool[];
}

/** A toolkit of exactly `tools` (first of a name wins, with a warning). */
function toolkitOf(tools: readonly Tool[]): Toolkit {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) console.warn(`[toolnexus] duplicate tool name "${tool.name}" — keeping first`);
    else byName.set(tool.name, tool);
  }
  const list = [...byName.values()];
  return {
    tools: () => [...list],
    get: (name) => byName.get(name),
    async execute(name, args, ctx) {
      const tool = byName.get(name);
      if (!tool) return { output: `Unknown tool: ${name}`, isError: true };
      try {
        return await tool.execute(args, toolContext(ctx));
      } catch (error) {
        if (isToolnexusError(error)) throw error;
        return { output: thrownMessage(error), isError: true };
      }
    },
    toOpenAI: () => toOpenAI(list),
    toAnthropic: () => toAnthropic(list),
    toGemini: () => toGemini(list),
  };
}

/** For the loop: a `Tool[]` becomes a toolkit of exactly those tools (no builtins); a Toolkit is returned as is. */
export function toToolkit(x: ToolkitLike | undefined): Toolkit | undefined {
  if (x === undefined) return undefined;
  return Array.isArray(x) ? toolkitOf(checkTools("toolkit", x)) : (x as Toolkit);
}
