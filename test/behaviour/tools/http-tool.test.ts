// httpTool, with `env` for header expansion (never process.env), an injectable fetch and timeoutMs.
import { describe, expect, it } from "vitest";
import { ConfigError, httpTool, type HttpToolOptions } from "toolnexus";
import { fakeFetch, hangingFetch } from "../../support/tools-fetch";
import { toolCtx } from "../../support/tool-context";

const base = { name: "api", description: "calls the API" };

describe("httpTool: the declaration", () => {
  it("is an http tool whose default schema asks for each URL placeholder as a string", () => {
    const tool = httpTool({ ...base, method: "GET", url: "https://api.test/users/{id}/posts/{postId}" });
    expect(tool.source).toBe("http");
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      properties: { id: { type: "string" }, postId: { type: "string" } },
      required: ["id", "postId"],
    });
    expect(httpTool({ ...base, method: "GET", url: "https://api.test/" }).inputSchema).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("refuses bad options with a ConfigError naming the option", () => {
    const ok: HttpToolOptions = { ...base, method: "GET", url: "https://api.test/" };
    expect(() => httpTool({ ...ok, method: "G E T" })).toThrow("method must be");
    expect(() => httpTool({ ...ok, url: "" })).toThrow("url must be");
    expect(() => httpTool({ ...ok, body: "xml" as never })).toThrow("body must be one of json, form, raw");
    expect(() => httpTool({ ...ok, resultMode: "bytes" as never })).toThrow("resultMode must be");
    expect(() => httpTool({ ...ok, timeoutMs: 0 })).toThrow("timeoutMs must be a number of ms > 0 and ≤ 2147483647");
    expect(() => httpTool({ ...ok, timeoutMs: 2 ** 31 })).toThrow("timeoutMs must be a number of ms > 0"); // would fire at once
    expect(() => httpTool({ ...ok, headers: { "X-N": 1 } as never })).toThrow("headers must be");
    expect(() => httpTool({ ...ok, name: "" })).toThrow(ConfigError);
  });

  it("checks arguments against inputSchema before any request", async () => {
    const f = fakeFetch();
    const tool = httpTool({ ...base, method: "GET", url: "https://api.test/users/{id}", fetch: f.fetch });
    expect(await tool.execute({}, toolCtx())).toEqual({
      output: "Invalid arguments for api: id: is required",
      isError: true,
    });
    expect(f.seen).toHaveLength(0);
  });
});

describe("httpTool: building the request", () => {
  it("GET: placeholders are URL-encoded and consumed; the other args go to the query string", async () => {
    const f = fakeFetch();
    const tool = httpTool({ ...base, method: "get", url: "https://api.test/users/{id}?v=1", fetch: f.fetch });
    await tool.execute({ id: "a b/c", q: "x&y", n: 2, opts: { deep: true } }, toolCtx());
    expect(f.seen[0]!.method).toBe("GET");
    expect(f.seen[0]!.url).toBe("https://api.test/users/a%20b%2Fc?v=1&q=x%26y&n=2&opts=%7B%22deep%22%3Atrue%7D");
    expect(f.seen[0]!.body).toBeUndefined();
  });

  it("POST: remaining args as a JSON body with Content-Type set; names in `query` go to the query string", async () => {
    const f = fakeFetch();
    const tool = httpTool({
      ...base,
      method: "POST",
      url: "https://api.test/items/{id}",
      query: ["dryRun"],
      fetch: f.fetch,
      inputSchema: { type: "object" },
    });
    await tool.execute({ id: 7, dryRun: true, title: "Tea", tags: ["a"] }, toolCtx());
    expect(f.seen[0]).toMatchObject({
      method: "POST",
      url: "https://api.test/items/7?dryRun=true",
      body: '{"title":"Tea","tags":["a"]}',
    });
    expect(f.seen[0]!.headers["content-type"]).toBe("application/json");
  });

  it("keeps a Content-Type the options set (any case); sends no body when nothing is left", async () => {
    const f = fakeFetch();
    const typed = httpTool({
      ...base,
      method: "PUT",
      url: "https://api.test/x",
      headers: { "content-TYPE": "application/vnd.api+json" },
      inputSchema: { type: "object" },
      fetch: f.fetch,
    });
    await typed.execute({ a: 1 }, toolCtx());
    expect(f.seen[0]!.headers["content-type"]).toBe("application/vnd.api+json");
    const empty = httpTool({ ...base, method: "DELETE", url: "https://api.test/items/{id}", fetch: f.fetch });
    await empty.execute({ id: "9" }, toolCtx());
    expect(f.seen[1]).toMatchObject({ method: "DELETE", url: "https://api.test/items/9", body: undefined });
    expect(f.seen[1]!.headers["content-type"]).toBeUndefined();
  });

  it("form and raw bodies", async () => {
    const f = fakeFetch();
    const open = { type: "object" as const };
    await httpTool({
      ...base,
      method: "POST",
      url: "https://api.test/f",
      body: "form",
      inputSchema: open,
      fetch: f.fetch,
    }).execute({ a: "1 2", b: true }, toolCtx());
    expect(f.seen[0]!.body).toBe("a=1+2&b=true");
    expect(f.seen[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    await httpTool({
      ...base,
      method: "POST",
      url: "https://api.test/r",
      body: "raw",
      inputSchema: open,
      fetch: f.fetch,
    }).execute({ body: "plain text" }, toolCtx());
    expect(f.seen[1]!.body).toBe("plain text");
  });

  it("HEAD sends its args in the query string, never a body", async () => {
    const f = fakeFetch(() => new Response(null, { status: 200 }));
    await httpTool({
      ...base,
      method: "HEAD",
      url: "https://api.test/h",
      inputSchema: { type: "object" },
      fetch: f.fetch,
    }).execute({ a: 1 }, toolCtx());
    expect(f.seen[0]).toMatchObject({ method: "HEAD", url: "https://api.test/h?a=1", body: undefined });
  });

  it("expands ${VAR} in header values from the env option (missing ⇒ empty), case-insensitively", async () => {
    const f = fakeFetch();
    const tool = httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      headers: { Authorization: "Bearer ${API_TOKEN}", "X-Trace": "t-${missing}-${Region}" },
      env: { API_TOKEN: "tok-123456", Region: "eu" },
      fetch: f.fetch,
    });
    await tool.execute({}, toolCtx());
    expect(f.seen[0]!.headers.authorization).toBe("Bearer tok-123456");
    expect(f.seen[0]!.headers["x-trace"]).toBe("t--eu");
  });

  it("without a fetch option, uses globalThis.fetch as it is when the tool runs", async () => {
    const tool = httpTool({ ...base, method: "GET", url: "https://api.test/" });
    const original = globalThis.fetch;
    const f = fakeFetch(() => new Response("from global"));
    globalThis.fetch = f.fetch as typeof fetch;
    try {
      expect((await tool.execute({}, toolCtx())).output).toBe("from global");
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe("httpTool: the result", () => {
  const answering = (body: string, status = 200, extra: Partial<HttpToolOptions> = {}) =>
    httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      fetch: fakeFetch(() => new Response(body, { status })).fetch,
      ...extra,
    });

  it("2xx: the body as text, metadata.status", async () => {
    expect(await answering("hello", 201).execute({}, toolCtx())).toEqual({
      output: "hello",
      isError: false,
      metadata: { status: 201 },
    });
  });

  it("non-2xx: 'HTTP <status>: <body>' as an error with metadata.status", async () => {
    expect(await answering("no such user", 404).execute({}, toolCtx())).toEqual({
      output: "HTTP 404: no such user",
      isError: true,
      metadata: { status: 404 },
    });
  });

  it("resultMode json re-serialises JSON (raw text JSON-quoted when it is not JSON); status+text prefixes the status", async () => {
    expect((await answering('{ "a" : [1, 2] }', 200, { resultMode: "json" }).execute({}, toolCtx())).output).toBe(
      '{"a":[1,2]}',
    );
    expect((await answering("not json", 200, { resultMode: "json" }).execute({}, toolCtx())).output).toBe('"not json"');
    expect((await answering("body", 202, { resultMode: "status+text" }).execute({}, toolCtx())).output).toBe(
      "202\nbody",
    );
  });

  it("a fetch that throws: its message as an error, no metadata", async () => {
    const tool = httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    expect(await tool.execute({}, toolCtx())).toEqual({ output: "fetch failed", isError: true });
  });

  it("header values never reach an output or an error, even when echoed", async () => {
    const secretHeaders = {
      headers: { Authorization: "Bearer ${TOKEN}", "X-Api-Key": "key-literal-999" },
      env: { TOKEN: "sk-live-abcdef" },
    };
    const echo = fakeFetch(
      (req) =>
        new Response(`you sent ${req.headers.authorization} and ${req.headers["x-api-key"]}; token sk-live-abcdef`, {
          status: 401,
        }),
    );
    const denied = await httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      fetch: echo.fetch,
      ...secretHeaders,
    }).execute({}, toolCtx());
    expect(denied.output).toBe("HTTP 401: you sent «redacted» and «redacted»; token «redacted»");
    const ok = fakeFetch((req) => new Response(`ok ${req.headers.authorization}`));
    expect(
      (
        await httpTool({ ...base, method: "GET", url: "https://api.test/", fetch: ok.fetch, ...secretHeaders }).execute(
          {},
          toolCtx(),
        )
      ).output,
    ).toBe("ok «redacted»");
    const leaky = httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      fetch: () => Promise.reject(new Error("bad header value: sk-live-abcdef")),
      ...secretHeaders,
    });
    expect(await leaky.execute({}, toolCtx())).toEqual({ output: "bad header value: «redacted»", isError: true });
  });
});

describe("httpTool: time limits and cancellation", () => {
  it("gives up after timeoutMs", async () => {
    const tool = httpTool({
      ...base,
      method: "GET",
      url: "https://api.test/",
      timeoutMs: 5,
      fetch: hangingFetch().fetch,
    });
    expect(await tool.execute({}, toolCtx())).toEqual({ output: "api: request timed out after 5ms", isError: true });
  });

  it("stops when ctx.signal aborts", async () => {
    const tool = httpTool({ ...base, method: "GET", url: "https://api.test/", fetch: hangingFetch().fetch });
    const controller = new AbortController();
    const running = tool.execute({}, toolCtx({ signal: controller.signal }));
    controller.abort(new Error("run cancelled"));
    expect(await running).toEqual({ output: "run cancelled", isError: true });
  });

  it("combines the timeout with ctx.signal by hand where AbortSignal.any is missing", async () => {
    const descriptor = Object.getOwnPropertyDescriptor(AbortSignal, "any");
    Object.defineProperty(AbortSignal, "any", { value: undefined, configurable: true, writable: true });
    try {
      const outer = new AbortController();
      const timed = httpTool({
        ...base,
        method: "GET",
        url: "https://api.test/",
        timeoutMs: 5,
        fetch: hangingFetch().fetch,
      });
      expect(await timed.execute({}, toolCtx({ signal: outer.signal }))).toEqual({
        output: "api: request timed out after 5ms",
        isError: true,
      });
      const cancelled = httpTool({ ...base, method: "GET", url: "https://api.test/", fetch: hangingFetch().fetch });
      const running = cancelled.execute({}, toolCtx({ signal: outer.signal }));
      outer.abort(new Error("stop"));
      expect(await running).toEqual({ output: "stop", isError: true });
      expect(await cancelled.execute({}, toolCtx({ signal: outer.signal }))).toEqual({ output: "stop", isError: true });
    } finally {
      if (descriptor) Object.defineProperty(AbortSignal, "any", descriptor);
      else delete (AbortSignal as { any?: unknown }).any;
    }
  });
});
