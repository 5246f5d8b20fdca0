// connectMcp's own edges, the way a user meets them, all on 127.0.0.1: a closed port; a server that accepts the
// connection and never answers; bad options (timeoutMs, headers, a URL with credentials, fetch); a call made
// after close() and one that close() cuts off; an injected fetch, through which every request must go; a
// tools/call nobody answers within timeoutMs; and header values, which no error may carry — not even a server
// that echoes them back. Registered by test/mcp/checks/ with their `check` (the test server's URL and stats).
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { freePort } from "../../scripts/lib/databases.mjs";
import { scriptedClient } from "./support/scripted.mjs";

const TOKEN = "conn-check-token-91c2";
const AUTH = `Bearer ${TOKEN}`;
const API_KEY = "conn-check-api-key-55e0";
const QUERY_KEY = "conn-check-query-key-3b7d";
const SECRETS = [AUTH, TOKEN, API_KEY, QUERY_KEY];
const headers = { authorization: AUTH, "x-api-key": API_KEY };

/** `promise`, or a failure if it has not settled within `ms` — a hang fails the check instead of the script. */
async function within(ms, promise, what) {
  let timer;
  const guard = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** Everything `console.error(value)` would print: message, stack and the whole cause chain. */
const printed = (value) => inspect(value, { depth: 10 });
function assertNoSecret(text, where) {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} carries the secret ${secret}:\n${text}`);
}

const find = (conn, name) =>
  conn.tools.find((t) => t.name === name) ?? assert.fail(`no tool ${name} in ${conn.tools.map((t) => t.name)}`);
const urlOf = (input) => (input instanceof Request ? input.url : String(input));
const methodOf = async (request) =>
  request.method === "POST"
    ? ((await request
        .clone()
        .json()
        .catch(() => undefined)) ?? {})
    : {};

const isCall = async (request) => (await methodOf(request)).method === "tools/call";

/**
 * A fetch that passes every request on, and holds each one `which` picks (a `tools/call` by default) without
 * ever answering while `stall()`.
 */
function stallingFetch(stall, which = isCall) {
  const held = [];
  const stalling = async (input, init) => {
    const request = new Request(input, init);
    if (!stall() || !(await which(request))) return fetch(request);
    const entry = { aborted: false };
    held.push(entry);
    request.signal.addEventListener("abort", () => (entry.aborted = true));
    return new Promise(() => {}); // never settles, abort or not: only connectMcp's own timer can end the call
  };
  return { stalling, held };
}

/** A TCP server on 127.0.0.1 that accepts every connection and never writes a byte. */
async function silentServer() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function connectionChecks(ctx) {
  await failureChecks(ctx);
  await closeChecks(ctx);
  await fetchAndTimeoutChecks(ctx);
}

/** A server that cannot be reached or does not answer, bad options, and secrets kept out of every error. */
async function failureChecks({ check, cleanups, connectMcp, url }) {
  await check(
    "connectMcp to a closed port: status failed, never a throw nor a hang; the error names the server and the refusal, no header value",
    async () => {
      const port = await freePort(); // free, and nobody listens on it
      const conn = await within(
        15_000,
        connectMcp({ name: "offline", url: `http://127.0.0.1:${port}/mcp?key=${QUERY_KEY}`, headers }),
        "connectMcp to a closed port",
      );
      assert.equal(conn.status, "failed");
      assert.deepEqual([conn.tools, conn.era], [[], undefined]);
      assert.ok(conn.error instanceof Error, "error is an Error");
      assert.match(
        conn.error.message,
        new RegExp(
          `^toolnexus/mcp: could not connect to the MCP server "offline" at http://127\\.0\\.0\\.1:${port}/mcp: .*ECONNREFUSED`,
        ),
      );
      assertNoSecret(printed(conn.error), "connection.error");
      await conn.close();
      assert.equal(conn.status, "failed");
    },
  );

  await check(
    "connectMcp to a server that accepts and never answers: status failed after timeoutMs, the error names timeoutMs",
    async () => {
      const silent = await silentServer();
      cleanups.push(() => silent.close());
      const conn = await within(
        15_000,
        connectMcp({ name: "silent", url: silent.url, headers, timeoutMs: 300 }),
        "connectMcp with timeoutMs",
      );
      assert.equal(conn.status, "failed");
      assert.equal(
        conn.error.message,
        `toolnexus/mcp: could not connect to the MCP server "silent" at ${silent.url}: no answer within 300 ms (connectMcp's timeoutMs)`,
      );
      assertNoSecret(printed(conn.error), "connection.error");
    },
  );

  await check(
    'timeoutMs: 0, -1, NaN, Infinity, "5", 2 ** 31 and null are ConfigErrors from connectMcp naming timeoutMs; nothing is sent',
    async () => {
      let sent = 0;
      const counting = (input, init) => (sent++, fetch(input, init));
      for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "5", 2 ** 31, null]) {
        await assert.rejects(connectMcp({ name: "x", url, fetch: counting, timeoutMs }), (error) => {
          assert.ok(error?.name === "ConfigError" && error.code === "config", `${String(timeoutMs)}: ${error}`);
          assert.match(error.message, /^toolnexus\/mcp: connectMcp "x": timeoutMs must be a number of milliseconds/);
          return true;
        });
      }
      assert.equal(sent, 0);
      const longest = await connectMcp({ name: "x", url, timeoutMs: 2 ** 31 - 1 }); // the longest a timer can wait
      assert.equal(longest.status, "connected", longest.error?.message);
      await longest.close();
    },
  );

  await check(
    "bad headers, a URL with credentials and a fetch that is not a function are ConfigErrors that never echo a secret",
    async () => {
      const refused = async (options, pattern) => {
        await assert.rejects(connectMcp({ name: "x", url, ...options }), (error) => {
          assert.ok(error?.name === "ConfigError" && error.code === "config", String(error));
          assert.match(error.message, pattern);
          assertNoSecret(printed(error), "the ConfigError");
          return true;
        });
      };
      await refused(
        { headers: { authorization: `${AUTH}\r\nx-injected: 1` } },
        /headers\["authorization"\] is not a valid/,
      );
      await refused({ headers: { "x-api-key": 42 } }, /headers\["x-api-key"\] must be a string, got number/);
      await refused({ headers: new Headers(headers) }, /headers must be a plain object .*Object\.fromEntries/);
      await refused({ url: `http://user:${API_KEY}@127.0.0.1:1/mcp` }, /url must not carry credentials/);
      await refused({ fetch: "fetch" }, /fetch must be a function, got string/);
    },
  );

  await check(
    "a server that echoes the headers and a query value back in its errors: neither connection.error nor a call's error result carries them",
    async () => {
      let fail = "tools/list";
      const echoing = async (input, init) => {
        const request = new Request(input, init);
        if ((await methodOf(request)).method !== fail) return fetch(request);
        const query = new URL(request.url).searchParams.get("key"); // a query value echoed on its own, too
        const echo = `refused: authorization=${request.headers.get("authorization")} key ${request.headers.get("x-api-key")} ${query ?? ""}`;
        return new Response(echo, { status: 403, headers: { "content-type": "text/plain" } });
      };
      const broken = await connectMcp({ name: "echoing", url: `${url}?key=${QUERY_KEY}`, headers, fetch: echoing });
      assert.equal(broken.status, "failed");
      assert.match(broken.error.message, /refused: authorization=/); // the server's words are kept …
      assertNoSecret(printed(broken.error), "connection.error"); // … without the values it echoed
      fail = "tools/call";
      const conn = await connectMcp({ name: "echoing", url, headers, fetch: echoing });
      cleanups.push(() => conn.close());
      assert.equal(conn.status, "connected", conn.error?.message);
      const result = await find(conn, "echoing_echo").execute({ text: "x" }, {});
      assert.equal(result.isError, true);
      assert.match(result.output, /^echoing: echo failed: .*refused: authorization=/);
      assertNoSecret(result.output, "the error result");
    },
  );
}

/** Calls after close() and during it: an error result that says so, never a hang. */
async function closeChecks({ check, connectMcp, url, stats }) {
  await check(
    "a call after close() is an error result that says so — nothing reaches the server; a run with the tool finishes",
    async () => {
      const conn = await connectMcp({ name: "test server", url, headers });
      const echo = find(conn, "test_server_echo");
      await conn.close();
      assert.equal(conn.status, "closed");
      const before = (await stats()).calls;
      const result = await within(10_000, echo.execute({ text: "late" }, {}), "a call after close()");
      assert.deepEqual(result, {
        output: "test server: echo was not called: the MCP connection is closed — connect again with connectMcp",
        isError: true,
        metadata: { server: "test server" },
      });
      const run = await within(
        10_000,
        scriptedClient({ calls: [{ name: "test_server_echo", args: { text: "late" } }] }).run("go", {
          toolkit: conn.tools,
        }),
        "a run after close()",
      );
      assert.equal(run.status, "done");
      assert.equal(run.text, result.output);
      assert.equal((await stats()).calls, before);
      await conn.close(); // a second close() is harmless
      assert.equal(conn.status, "closed");
    },
  );

  await check(
    "close() while a call is open: the call ends as an error result that says it was cut off, and its request is aborted",
    async () => {
      const { stalling, held } = stallingFetch(() => true);
      const conn = await connectMcp({ name: "test server", url, fetch: stalling });
      const call = find(conn, "test_server_echo").execute({ text: "open" }, {});
      for (let i = 0; i < 200 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(held.length, 1, "the call never reached the fetch");
      await within(10_000, conn.close(), "close()");
      const result = await within(10_000, call, "the open call after close()");
      assert.equal(result.isError, true);
      assert.match(
        result.output,
        /^test server: echo was cut off: the MCP connection was closed while the call was open/,
      );
      assert.equal(held[0].aborted, true, "the open request was not aborted");
    },
  );
}

/**
 * Connects with an injected fetch (`tag` may change each request), runs `use(conn)` and closes; then connects
 * once more without the option, as a control. Returns what went through the injected fetch (each JSON-RPC method,
 * or the HTTP method of a request without one) and how many requests to `url` went through `globalThis.fetch`.
 */
async function viaInjectedFetch(connectMcp, options, use, tag = () => {}) {
  const seen = [];
  const real = globalThis.fetch;
  const injected = async (input, init) => {
    const request = new Request(input, init);
    seen.push((await methodOf(request)).method ?? request.method);
    tag(request, seen.length);
    return real(request);
  };
  let direct = 0;
  globalThis.fetch = (input, init) => (urlOf(input).startsWith(options.url) && direct++, real(input, init));
  try {
    const conn = await connectMcp({ ...options, fetch: injected });
    const result = conn.status === "connected" ? await use(conn) : undefined;
    await conn.close();
    const bypassed = direct;
    const plain = await connectMcp(options); // without the option, the same requests do use globalThis.fetch
    await plain.close();
    return { conn, result, seen, bypassed, control: direct - bypassed };
  } finally {
    globalThis.fetch = real;
  }
}

/** The injected fetch carries every request; timeoutMs ends a call nobody answers. */
async function fetchAndTimeoutChecks({ check, cleanups, connectMcp, url, stats }) {
  await check(
    "fetch: every request (connect, list, call) goes through the injected fetch, with the header it sets; none through the global one",
    async () => {
      const { conn, result, seen, bypassed, control } = await viaInjectedFetch(
        connectMcp,
        { name: "test server", url },
        (c) => find(c, "test_server_echo").execute({ text: "via" }, {}),
        (request, n) => request.headers.set("authorization", `Bearer through-fetch-${n}`),
      );
      assert.equal(conn.status, "closed", conn.error?.message);
      assert.equal(result.output, "echo: via");
      assert.deepEqual(seen, ["server/discover", "tools/list", "tools/call"]);
      assert.equal(bypassed, 0, "a request went through globalThis.fetch");
      assert.ok(control > 0, "the control connection made no request through globalThis.fetch");
      const reached = (await stats()).authorization;
      for (let n = 1; n <= seen.length; n++) assert.ok(reached.includes(`Bearer through-fetch-${n}`), `request ${n}`);
    },
  );

  await check(
    "timeoutMs: a tools/call nobody answers ends as an error result naming timeoutMs, its request aborted; the connection goes on",
    async () => {
      let stall = true;
      const { stalling, held } = stallingFetch(() => stall);
      const conn = await connectMcp({ name: "slow", url, headers, fetch: stalling, timeoutMs: 400 });
      cleanups.push(() => conn.close());
      assert.equal(conn.status, "connected", conn.error?.message);
      const before = (await stats()).calls;
      const result = await within(20_000, find(conn, "slow_echo").execute({ text: "x" }, {}), "a call past timeoutMs");
      assert.deepEqual(result, {
        output: "slow: echo failed: no answer within 400 ms (connectMcp's timeoutMs)",
        isError: true,
        metadata: { server: "slow" },
      });
      assert.equal(held.length, 1);
      assert.equal(held[0].aborted, true, "the request nobody answered was not aborted");
      assert.equal((await stats()).calls, before); // it was held in the fetch, never sent
      stall = false;
      assert.equal((await find(conn, "slow_echo").execute({ text: "after" }, {})).output, "echo: after");
    },
  );

  await check("a call its run cancels (ctx.signal) is not reported as a timeout", async () => {
    const { stalling, held } = stallingFetch(() => true);
    const conn = await connectMcp({ name: "cut", url, headers, fetch: stalling, timeoutMs: 60_000 });
    cleanups.push(() => conn.close());
    assert.equal(conn.status, "connected", conn.error?.message);
    const stop = new AbortController();
    const running = find(conn, "cut_echo").execute({ text: "x" }, { signal: stop.signal });
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort(new Error("the user left"));
    const result = await within(10_000, running, "a cancelled call");
    assert.equal(result.isError, true);
    assert.match(result.output, /^cut: echo failed: /);
    assert.doesNotMatch(result.output, /no answer within|timeoutMs/); // it was cancelled, not timed out
    assert.equal(held[0].aborted, true, "the cancelled request was not aborted");
  });
}

/** The session era makes more requests (initialize, its notification, the GET stream): all through the fetch. */
export async function sessionFetchCheck({ check, connectMcp, url }) {
  await check(
    "server-everything: with an injected fetch every request of the session era goes through it (POSTs and the GET stream)",
    async () => {
      const { conn, result, seen, bypassed, control } = await viaInjectedFetch(
        connectMcp,
        { name: "everything", url },
        (c) => find(c, "everything_echo").execute({ message: "via" }, {}),
      );
      assert.equal(conn.era, "legacy", conn.error?.message);
      assert.equal(result.output, "Echo: via");
      for (const method of ["initialize", "notifications/initialized", "GET", "tools/list", "tools/call", "DELETE"])
        assert.ok(seen.includes(method), `${method} did not go through the fetch: ${seen}`);
      assert.equal(seen.at(-1), "DELETE", `close() ends the session last: ${seen}`);
      assert.equal(bypassed, 0, "a request went through globalThis.fetch");
      assert.ok(control > 0, "the control connection made no request through globalThis.fetch");
    },
  );
}

/** A POST of `tools/list` in session `id`, as a session-era client sends it: the server's status. */
async function listIn(url, id) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }),
  });
  await response.body?.cancel();
  return response.status;
}

/** close() on a session-era connection ends the session on the server; a server that never answers does not hold it up. */
export async function sessionEndChecks({ check, connectMcp, url }) {
  await check(
    "server-everything: close() ends the session on the server (HTTP DELETE): its id is refused afterwards",
    async () => {
      let id;
      const conn = await connectMcp({
        name: "everything",
        url,
        fetch: (input, init) => {
          const request = new Request(input, init);
          id ??= request.headers.get("mcp-session-id") ?? undefined;
          return fetch(request);
        },
      });
      assert.equal(conn.era, "legacy", conn.error?.message);
      assert.ok(id, "no request carried a session id");
      assert.equal(await listIn(url, id), 200, "the session answers while the connection is open");
      await conn.close();
      const after = await listIn(url, id);
      assert.ok(after >= 400 && after < 500, `the ended session still answers: ${after}`);
    },
  );

  await check(
    "server-everything: a server that never answers the DELETE does not hold close() past timeoutMs; the DELETE is aborted",
    async () => {
      const isDelete = (request) => request.method === "DELETE";
      const { stalling, held: deletes } = stallingFetch(() => true, isDelete);
      const conn = await connectMcp({ name: "everything", url, timeoutMs: 1_000, fetch: stalling });
      assert.equal(conn.era, "legacy", conn.error?.message);
      await within(10_000, conn.close(), "close() with a DELETE nobody answers");
      assert.equal(conn.status, "closed");
      assert.equal(deletes.length, 1, "close() sent one DELETE");
      assert.ok(deletes[0].aborted, "the DELETE nobody answered was aborted");
    },
  );
}
