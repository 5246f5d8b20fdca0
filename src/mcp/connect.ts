// `connectMcp`: one remote MCP server over streamable HTTP, as toolnexus tools. Built on the MCP TypeScript
// SDK's client, which negotiates the era (2026-07-28 `server/discover`, falling back to the session-based
// `initialize` of the versions before it), walks `tools/list` pages and mirrors `Mcp-Param-*` headers.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { JSONSchema, NeedsApproval, Tool, ToolContext } from "../index";
import { approvalFor, approvalProblem, type McpApproval } from "./approval";
import { executeMcp, type McpToolDef } from "./call";
import type { ElicitParams, ElicitResponse } from "./elicitation";
import { pushQueue, type Link } from "./link";
import { toolName } from "./names";
import { endpointOf } from "./state";

export interface ConnectMcpOptions {
  /** The server's name: tools are named `sanitize(name) + "_" + sanitize(tool)`. */
  name: string;
  /** The streamable HTTP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`). Never stored, logged or put in a suspended run's state. */
  headers?: Record<string, string>;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Bounds connecting, listing, and each call (a session-era call includes the time its pushed elicitation waits). */
  timeoutMs?: number;
  /**
   * Calls that wait for an approval (`kind: "approval"`) before anything is sent to the server: `true` for
   * every tool, `{ deploy: true, transfer: (args) => … }` by the server's tool names, or
   * `(tool, args, ctx) => boolean` over the server's tool name and the arguments.
   */
  needsApproval?: McpApproval;
}

export type McpStatus = "connected" | "failed" | "closed";

export interface McpConnection {
  /** The server's tools (`source: "mcp"`); empty when the connection failed. */
  readonly tools: Tool[];
  readonly status: McpStatus;
  /** `"modern"` (2026-07-28) or `"legacy"` (the session-based versions before it); undefined when it failed. */
  readonly era: "modern" | "legacy" | undefined;
  /** Why the connection failed (status `"failed"`). */
  readonly error: Error | undefined;
  /** Closes the connection; elicitations still waiting in open calls are cancelled. */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: "toolnexus", version: "0.1.0" };

function checkOptions(options: ConnectMcpOptions): URL {
  if (typeof options?.name !== "string" || options.name === "")
    throw new TypeError("toolnexus/mcp: connectMcp: name must be a non-empty string");
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError(`toolnexus/mcp: connectMcp "${options.name}": url must be an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`toolnexus/mcp: connectMcp "${options.name}": url must be http(s), got ${url.protocol}`);
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new TypeError(`toolnexus/mcp: connectMcp "${options.name}": timeoutMs must be a positive number`);
  }
  const problem = approvalProblem(options.needsApproval);
  if (problem) throw new TypeError(`toolnexus/mcp: connectMcp "${options.name}": ${problem}`);
  return url;
}

/** Connects to a remote MCP server and lists its tools. A server that cannot be reached gives status "failed". */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpConnection> {
  const url = checkOptions(options);
  const client = new Client(CLIENT_INFO, {
    capabilities: { elicitation: { form: {}, url: {} } },
    versionNegotiation: { mode: "auto" },
    inputRequired: { autoFulfill: false },
  });
  const pushes = pushQueue();
  // a session-era server pushes its elicitations into the open call; the call that is waiting takes them
  client.setRequestHandler("elicitation/create", (request) => {
    const response = new Promise<ElicitResponse>((respond) =>
      pushes.deliver({ params: request.params as ElicitParams, respond }),
    );
    return response as Promise<{ action: ElicitResponse["action"] }>;
  });
  const transport = new StreamableHTTPClientTransport(url, {
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.headers && { requestInit: { headers: { ...options.headers } } }),
  });
  let floor = -1;
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    if ("method" in message && "id" in message && typeof message.id === "number") floor = Math.max(floor, message.id);
    return send(message, sendOptions);
  };
  const timeout = options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs };
  try {
    await client.connect(transport, timeout);
    const listed = await client.listTools(undefined, timeout);
    const link: Link = {
      name: options.name,
      client,
      endpoint: endpointOf(url),
      era: client.getProtocolEra() === "modern" ? "modern" : "legacy",
      timeoutMs: options.timeoutMs,
      idFloor: () => floor,
      raiseIds: (to) => raiseIds(client, to),
      nextPush: pushes.next,
      open: new Map(),
      closed: false,
    };
    return connection(
      link,
      listed.tools.map((t) => mcpTool(link, t, approvalFor(options.needsApproval, t.name))),
      () => pushes.drain(),
    );
  } catch (error) {
    await client.close().catch(() => {});
    return failed(options.name, error);
  }
}

function connection(link: Link, tools: Tool[], drain: () => { respond(r: ElicitResponse): void }[]): McpConnection {
  return {
    tools,
    get status(): McpStatus {
      return link.closed ? "closed" : "connected";
    },
    era: link.era,
    error: undefined,
    async close() {
      if (link.closed) return;
      link.closed = true;
      for (const open of link.open.values()) open.push.respond({ action: "cancel" });
      for (const push of drain()) push.respond({ action: "cancel" });
      link.open.clear();
      await link.client.close();
    },
  };
}

function failed(name: string, error: unknown): McpConnection {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    tools: [],
    status: "failed",
    era: undefined,
    error: new Error(`toolnexus/mcp: could not connect to the MCP server "${name}": ${reason}`, { cause: error }),
    close: async () => {},
  };
}

/**
 * The MCP client numbers requests from 0 on every new connection, and a retry of a suspended call made by a
 * fresh connection must not reuse an id of the original call (2026-07-28 multi round-trip requests). The client
 * has no public way to start elsewhere, so this moves its counter — a field of the pinned client version.
 */
function raiseIds(client: Client, floor: number): void {
  const counter = client as unknown as { _requestMessageId?: unknown };
  if (typeof counter._requestMessageId === "number" && counter._requestMessageId <= floor)
    counter._requestMessageId = floor + 1;
}

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
}

/**
 * An MCP tool as a toolnexus Tool. Its schema goes to the model untouched (`$schema`, `$defs`, 2020-12 keywords
 * included) and the core's argument checker does not run: the server validates its own arguments.
 */
function mcpTool(link: Link, listed: ListedTool, needsApproval: NeedsApproval | undefined): Tool {
  const def: McpToolDef = { name: listed.name, inputSchema: listed.inputSchema };
  const name = toolName(link.name, listed.name);
  return {
    name,
    description: listed.description ?? listed.title ?? "",
    inputSchema: listed.inputSchema as JSONSchema,
    source: "mcp",
    ...(needsApproval !== undefined && { needsApproval }),
    // the loop gates needsApproval before execute, as for any tool
    execute: (given: Record<string, unknown>, ctx?: ToolContext) => executeMcp(link, def, given ?? {}, ctx),
  };
}
