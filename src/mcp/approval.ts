// `needsApproval` for the tools of one MCP server (`connectMcp({ needsApproval })`): each tool gets its rule
// as its own `needsApproval`, and the loop gates it as it gates any tool — before anything is sent to the
// server, the call suspends with `kind: "approval"`, the prompt naming the tool, `data: { tool, args }`; a
// declined or expired approval is never executed, so the server never hears of it.
import type { NeedsApproval, ToolContext } from "../index";

type Args = Record<string, unknown>;

/**
 * Which calls wait for an approval: `true` (every tool of the server), a record of the server's tool names
 * (as the server lists them, e.g. `deploy`) to `true` or a predicate of the arguments, or one predicate of
 * the server's tool name and the arguments.
 */
export type McpApproval =
  | boolean
  | Readonly<Record<string, NeedsApproval>>
  | ((tool: string, args: Args, ctx: ToolContext) => boolean | Promise<boolean>);

/** Checks the option once, in `connectMcp`; returns a message naming what is wrong, or undefined. */
export function approvalProblem(value: unknown): string | undefined {
  if (value === undefined || typeof value === "boolean" || typeof value === "function") return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "needsApproval must be a boolean, a record of tool names, or a function";
  for (const [tool, rule] of Object.entries(value))
    if (typeof rule !== "boolean" && typeof rule !== "function")
      return `needsApproval.${tool} must be a boolean or a function`;
  return undefined;
}

/** The per-tool rule for the server's tool `tool`, as a Tool's own `needsApproval`. */
export function approvalFor(option: McpApproval | undefined, tool: string): NeedsApproval | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return true;
  if (typeof option === "function") return (args, ctx) => option(tool, args, ctx);
  const rule = Object.hasOwn(option, tool) ? option[tool] : undefined;
  return rule === false ? undefined : rule;
}
