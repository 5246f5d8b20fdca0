// The MCP test server (server SDK 2.4, web-standard APIs only, so the same module can run on Node, workerd or
// Deno): plain tools (one with an `x-mcp-header` argument), a form elicitation with requestState, two elicitations in one round, a URL elicitation
// completed by a GET /connect?flow=… route, and a tool whose requestState binds its arguments.
// `createTestServer({ key })` returns `{ fetch, stats }`; `stats` counts the side effects
// (deployments, transfers) so a test can tell whether a call ran once or twice.
// Control routes for tests: GET /stats, POST /control/expire (every requestState minted so far expires).
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const text = (t, isError = false) => ({ content: [{ type: "text", text: t }], ...(isError && { isError: true }) });

export function createTestServer({ key = "a test key that is long enough for the HMAC codec!", cors = false } = {}) {
  const stats = { deployments: [], transfers: [], calls: 0, retries: 0, ids: [], authorization: [] };
  let expiredBefore = 0; // requestStates minted before this sequence number are expired
  let minted = 0;
  const flows = new Set(); // URL flows completed out of band
  const canonical = (v) =>
    JSON.stringify(v, (_k, x) =>
      x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
    );
  const codec = createRequestStateCodec({
    key,
    ttlSeconds: 600,
    bind: (ctx) => ctx.mcpReq.method, // the server context carries no params: transfer binds its arguments itself
  });
  const mint = (payload, ctx) => codec.mint({ ...payload, seq: minted++ }, ctx);
  const verify = async (state, ctx) => {
    const payload = await codec.verify(state, ctx);
    if (payload.seq < expiredBefore) throw new Error("expired");
    return payload;
  };

  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "toolnexus-test-server", version: "0.0.1" }, { requestState: { verify } });
    server.registerTool(
      "echo",
      { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
      async ({ text: t }) => text(`echo: ${t}`),
    );
    server.registerTool(
      "add",
      { description: "Adds two numbers; structured result", inputSchema: z.object({ a: z.number(), b: z.number() }) },
      async ({ a, b }) => ({
        content: [{ type: "text", text: `${a + b}` }],
        structuredContent: { sum: a + b },
      }),
    );
    server.registerTool("fail", { description: "Always fails", inputSchema: z.object({}) }, async () => ({
      content: [
        { type: "text", text: "first problem" },
        { type: "text", text: "  " },
        { type: "text", text: "second problem" },
      ],
      isError: true,
    }));
    server.registerTool(
      "regional",
      {
        description: "Takes its region from an Mcp-Param header too",
        inputSchema: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }),
      },
      async ({ region }) => text(`region ${region}`),
    );
    registerDeploy(server, stats, mint);
    registerSurvey(server, mint);
    registerConnect(server, flows, mint);
    registerTransfer(server, stats, mint, canonical);
    return server;
  });

  async function fetch(request) {
    const url = new URL(request.url);
    if (cors && request.method === "OPTIONS") return new Response(null, { status: 204, headers: corsHeaders(request) });
    if (url.pathname === "/stats") return Response.json(stats);
    if (url.pathname === "/control/expire" && request.method === "POST") {
      expiredBefore = minted;
      return new Response("ok");
    }
    if (url.pathname === "/connect") {
      flows.add(url.searchParams.get("flow"));
      return new Response("connected");
    }
    if (request.method === "POST") {
      const body = await request
        .clone()
        .json()
        .catch(() => undefined);
      const auth = request.headers.get("authorization");
      if (auth && !stats.authorization.includes(auth)) stats.authorization.push(auth);
      if (body?.method === "tools/call") {
        stats.calls++;
        stats.ids.push(body.id);
        if (body.params?.requestState !== undefined || body.params?.inputResponses !== undefined) stats.retries++;
      }
    }
    const response = await handler.fetch(request);
    if (!cors) return response;
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(corsHeaders(request))) headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  return { fetch, stats };
}

/**
 * The allow list a page on another origin needs, exactly as the README's MCP section and docs/guide/mcp.md give it
 * (the request headers are not echoed back, so the Chromium checks prove that list is enough): the MCP
 * headers, `authorization`, and the one `mcp-param-*` header this server's tools declare (`regional`).
 */
export function corsHeaders(request) {
  return {
    "access-control-allow-origin": request.headers.get("origin") ?? "*",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers":
      "content-type, mcp-method, mcp-name, mcp-protocol-version, mcp-session-id, authorization, mcp-param-region",
    "access-control-expose-headers": "mcp-session-id, www-authenticate",
    "access-control-max-age": "600",
    vary: "origin",
  };
}

function registerDeploy(server, stats, mint) {
  const confirm = z.object({ confirm: z.boolean().meta({ title: "Confirm deployment" }) });
  server.registerTool(
    "deploy",
    { description: "Deploys after a confirmation", inputSchema: z.object({ env: z.string() }) },
    async ({ env }, ctx) => {
      const state = ctx.mcpReq.requestState();
      if (state === undefined) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirm }) },
          requestState: await mint({ step: "asked", env }, ctx),
        });
      }
      if (state.env !== env) return text("state for another env", true);
      const view = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      if (view.kind === "elicit" && view.action === "decline") return text("Deployment declined", true);
      if (view.kind === "elicit" && view.action === "cancel") return text("Deployment cancelled", true);
      const ok = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirm);
      if (!ok?.confirm) return text("Not confirmed", true);
      stats.deployments.push(env);
      return text(`Deployed to ${env}`);
    },
  );
}

function registerSurvey(server, mint) {
  const name = z.object({ name: z.string() });
  const age = z.object({ age: z.number() });
  server.registerTool(
    "survey",
    { description: "Asks two questions in one round", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState();
      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({ message: "Your name?", requestedSchema: name }),
            age: inputRequired.elicit({ message: "Your age?", requestedSchema: age }),
          },
          requestState: await mint({ step: "asked" }, ctx),
        });
      }
      const n = acceptedContent(ctx.mcpReq.inputResponses, "name", name);
      const a = acceptedContent(ctx.mcpReq.inputResponses, "age", age);
      return n && a ? text(`${n.name} is ${a.age}`) : text("survey incomplete", true);
    },
  );
}

function registerConnect(server, flows, mint) {
  server.registerTool(
    "connect_account",
    { description: "Links an account through a URL", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState();
      const flow = state?.flow ?? `flow-${Math.random().toString(36).slice(2)}`;
      if (flows.has(flow)) return text(`Account linked (${flow})`);
      const base = ctx.http?.req?.url ? new URL(ctx.http.req.url).origin : "http://127.0.0.1";
      return inputRequired({
        inputRequests: {
          signin: inputRequired.elicitUrl({
            message: "Link your account",
            url: `${base}/connect?flow=${flow}`,
            elicitationId: flow,
          }),
        },
        requestState: await mint({ flow }, ctx),
      });
    },
  );
}

function registerTransfer(server, stats, mint, canonical) {
  const ok = z.object({ approve: z.boolean() });
  server.registerTool(
    "transfer",
    {
      description: "Moves money; its requestState binds the arguments",
      inputSchema: z.object({ amount: z.number(), to: z.string() }),
    },
    async ({ amount, to }, ctx) => {
      const state = ctx.mcpReq.requestState();
      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            approve: inputRequired.elicit({ message: `Send ${amount} to ${to}?`, requestedSchema: ok }),
          },
          requestState: await mint({ step: "asked", args: canonical({ amount, to }) }, ctx),
        });
      }
      if (state.args !== canonical({ amount, to })) return text("requestState was minted for other arguments", true);
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "approve", ok);
      if (!answer?.approve) return text("Transfer not approved", true);
      stats.transfers.push({ amount, to });
      return text(`Sent ${amount} to ${to}`);
    },
  );
}
