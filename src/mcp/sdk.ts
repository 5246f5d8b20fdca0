// The MCP SDK's client, an optional peer dependency: loaded on first use rather than imported at the top,
// so that an app without it installed gets an error naming the package to install instead of the
// runtime's bare "module not found" while it is still loading toolnexus/mcp.
import { ToolnexusError } from "../index";

export type McpSdk = typeof import("@modelcontextprotocol/client");

const PEER = "@modelcontextprotocol/client";
let loading: Promise<McpSdk> | undefined;

/** The SDK module; a failure to load it is a `config` ToolnexusError that says what to install (and is not kept). */
export function loadSdk(): Promise<McpSdk> {
  loading ??= import("@modelcontextprotocol/client").catch((cause: unknown) => {
    loading = undefined;
    throw new ToolnexusError(
      "config",
      `toolnexus/mcp needs its peer dependency ${PEER}, which could not be loaded — install it: npm i ${PEER} (${String((cause as Error)?.message ?? cause).slice(0, 200)})`,
      { cause },
    );
  });
  return loading;
}
