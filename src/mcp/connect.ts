// `connectMcp`: one remote MCP server over streamable HTTP, as toolnexus tools. Built on the MCP TypeScript
// SDK's client, which negotiates the era (2026-07-28 `server/discover`, falling back to the session-based
// `initialize` of the versions before it), walks `tools/list` pages and mirrors `Mcp-Param-*` headers.
import type { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { JSONSchema, NeedsApproval, Tool, ToolContext } from "../index";
import { approvalFor } from "./approval";
import { executeMcp, type McpToolDef } from "./call";
import type { ElicitParams, ElicitResponse } from "./elicitation";
import { pushQueue, type Link } from "./link";
import { toolName } from "./names";
import { checkOptions, secretsOf, type ConnectMcpOptions } from "./options";
import { mentions, reasonOf } from "./reason";
import { loadSdk } from "./sdk";
import { endpointOf } from "./state";

export type { ConnectMcpOptions } from "./options";

export type McpStatus = "connected" | "failed" | "closed";

export interface McpConnection {
  /** The server's tools (`source: "mcp"`); empty when the connection failed. */
  readonly tools: Tool[];
  readonly status: McpStatus;
  /** `"modern"` (2026-07-28) or `"legacy"` (the session-based versions before it); undefined when it failed. */
  readonly era: "modern" | "legacy" | undefined;
  /** Why the connection failed (status `"failed"`). */
  readonly error: Error | undefined;
  /**
   * Closes the connection; elicitations still waiting in open calls are cancelled. A call still open, or made
   * afterwards, ends as an error result saying the connection is closed (nothing more is sent). On a
   * session-era server it first ends the session (HTTP DELETE), waiting for that at most `timeoutMs` (5 s without).
   */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: "toolnexus", version: "0.1.0" };

/**
 * Connects to a remote MCP server and lists its tools. A bad option is a TypeError; a server that cannot be
 * reached, refuses or does not answer within `timeoutMs` gives status "failed" and `error` (never a throw).
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpConnection> {
  const url = checkOptions(options);
  const secrets = secretsOf(options, url);
  const { Client, StreamableHTTPClientTransport } = await loadSdk();
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
      secrets,
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
      transport,
    );
  } catch (error) {
    await client.close().catch(() => {});
    return failed(options.name, endpointOf(url), error, secrets, options.timeoutMs);
  }
}

function connection(
  link: Link,
  tools: Tool[],
  drain: () => { respond(r: ElicitResponse): void }[],
  transport: StreamableHTTPClientTransport,
): McpConnection {
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
      if (transport.sessionId) await endSession(transport, link.timeoutMs ?? END_SESSION_MS);
      await link.client.close(); // also aborts a DELETE still waiting
    },
  };
}

/** How long `close()` waits for a session-era server to confirm the end of its session, without `timeoutMs`. */
const END_SESSION_MS = 5_000;

/**
 * Tells a session-era server the session is over (HTTP DELETE with its id), so it can free it now instead of at
 * its own expiry. A server that does not support that answers 405; one that fails or does not answer within
 * `ms` changes nothing: the connection closes on our side either way.
 */
async function endSession(transport: StreamableHTTPClientTransport, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([transport.terminateSession().catch(() => {}), waited]);
  if (timer !== undefined) clearTimeout(timer);
}

function failed(
  name: string,
  endpoint: string,
  error: unknown,
  secrets: readonly string[],
  timeoutMs: number | undefined,
): McpConnection {
  const reason = reasonOf(error, secrets, timeoutMs);
  const message = `toolnexus/mcp: could not connect to the MCP server "${name}" at ${endpoint}: ${reason}`;
  return {
    tools: [],
    status: "failed",
    era: undefined,
    // the client's error stays the cause unless it (or its cause) repeats a header value
    error: new Error(message, mentions(error, secrets) ? undefined : { cause: error }),
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

/** The server a tool runs on, as telemetry names it: the connection's name, host and port (no path, no query). */
function serverOf(link: Link): NonNullable<Tool["server"]> {
  const { hostname, port } = new URL(link.endpoint);
  return { name: link.name, address: hostname, ...(port ? { port: Number(port) } : {}) };
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
    server: serverOf(link),
    ...(needsApproval !== undefined && { needsApproval }),
    // the loop gates needsApproval before execute, as for any tool
    execute: (given: Record<string, unknown>, ctx?: ToolContext) => executeMcp(link, def, given ?? {}, ctx),
  };
}
