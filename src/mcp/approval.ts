// `needsApproval` for the tools of one MCP server (`connectMcp({ needsApproval })`). The gate works as the
// core's does for `defineTool`: before anything is sent to the server, the call suspends with
// `kind: "approval"`, the prompt naming the tool, `data: { tool, args }`. The loop never re-executes a call
// whose approval was declined or expired (the model sees `declined/expired: <prompt>`), so the server never
// hears of it; an ok answer re-executes it, and a re-execution that carries an answer was approved already
// (it answers the approval, or an elicitation of the approved call).
import { pending, type NeedsApproval, type ToolContext, type ToolResult } from "../index";
import { failure } from "./result";

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

/** The id prefix of the core's own approval Requests, so the loop treats both gates alike. */
const APPROVAL_ID = "approval-";

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

/** The approval Request for a first call that needs one; undefined when the call may go to the server. */
export async function approvalGate(
  server: string,
  name: string,
  rule: NeedsApproval | undefined,
  args: Args,
  ctx: ToolContext | undefined,
): Promise<ToolResult | undefined> {
  if (rule === undefined || rule === false || ctx?.answer) return undefined;
  let needed: boolean;
  try {
    needed = rule === true || (await rule(args, ctx ?? placeholder()));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(server, `${server}: the needsApproval predicate of ${name} threw: ${message}`);
  }
  if (!needed) return undefined;
  const id = `${APPROVAL_ID}${crypto.randomUUID()}`;
  return pending({ id, kind: "approval", prompt: `Approve running the tool ${name}?`, data: { tool: name, args } });
}

/** The context a predicate gets when the tool is executed outside a run (`tool.execute(args)`). */
function placeholder(): ToolContext {
  const callId = `call-${crypto.randomUUID()}`;
  return { signal: new AbortController().signal, runId: "", callId, idempotencyKey: `:${callId}` };
}
