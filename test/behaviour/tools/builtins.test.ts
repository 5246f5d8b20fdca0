// The builtins that need nothing but fetch : question, webfetch, todowrite.
import { describe, expect, it } from "vitest";
import { answerOutput, createToolkit, pendingOf, type Toolkit } from "toolnexus";
import { fakeFetch, hangingFetch, type FakeFetch } from "../../support/tools-fetch";

const kitWith = (f?: FakeFetch): Promise<Toolkit> => createToolkit(f ? { fetch: f.fetch } : {});

describe("question", () => {
  const questions = [
    { question: "Pick a color?", header: "Color", options: ["red", "green"] },
    { question: "Confirm?", options: [] },
  ];

  it("suspends with kind question and the rendered prompt (options shown, headers not)", async () => {
    const kit = await kitWith();
    expect(kit.get("question")?.source).toBe("builtin");
    const result = await kit.execute("question", { questions });
    expect(result.isError).toBe(true);
    expect(result.output).toBe("Pick a color? (options: red, green)\nConfirm?");
    const request = pendingOf(result);
    expect(request).toMatchObject({
      kind: "question",
      prompt: "Pick a color? (options: red, green)\nConfirm?",
      data: { questions },
    });
    expect(request?.id).toMatch(/.+/);
  });

  it("re-executed with the answer, returns the answer's data verbatim as JSON ({} without data)", async () => {
    const kit = await kitWith();
    const data = { answers: [["red"], ["yes"]] };
    expect(await kit.execute("question", { questions }, { answer: { id: "q1", ok: true, data } })).toEqual({
      output: JSON.stringify(data),
      isError: false,
    });
    expect(await kit.execute("question", { questions }, { answer: { id: "q1", ok: true } })).toEqual({
      output: "{}",
      isError: false,
    });
    expect((await kit.execute("question", { questions }, { answer: answerOutput("q1", "red") })).output).toBe(
      '{"output":"red"}',
    );
  });

  it("checks its arguments", async () => {
    const kit = await kitWith();
    expect(await kit.execute("question", {})).toEqual({
      output: "Invalid arguments for question: questions: is required",
      isError: true,
    });
    expect((await kit.execute("question", { questions: [{ header: "no question" }] })).output).toBe(
      "Invalid arguments for question: questions[0].question: is required",
    );
  });

  it("a throw inside a builtin becomes '<name>: <message>'", async () => {
    const kit = await kitWith();
    const result = await kit.execute(
      "question",
      { questions },
      { answer: { id: "q1", ok: true, data: { n: BigInt(1) } } },
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^question: ./);
  });
});

describe("webfetch", () => {
  const page = `<!doctype html><html><head><title>T</title><style>p { color: red }</style><script>alert("x")</script></head>
    <body><!-- note --><h1>Hello</h1>
    <p>Fish &amp; chips &lt;3 &#169; &#x263A;</p></body></html>`;
  const html = () => fakeFetch(() => new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }));

  it("GETs the url; markdown (the default) and text strip the page to plain text", async () => {
    const f = html();
    const kit = await kitWith(f);
    const expected = "T Hello Fish & chips <3 © ☺";
    expect(await kit.execute("webfetch", { url: "https://example.test/a" })).toEqual({
      output: expected,
      isError: false,
      metadata: { status: 200, format: "markdown" },
    });
    expect(await kit.execute("webfetch", { url: "https://example.test/a", format: "text" })).toEqual({
      output: expected,
      isError: false,
      metadata: { status: 200, format: "text" },
    });
    expect(f.seen.map((r) => r.method)).toEqual(["GET", "GET"]);
  });

  it("html returns the raw body", async () => {
    const kit = await kitWith(html());
    expect(await kit.execute("webfetch", { url: "https://example.test/a", format: "html" })).toEqual({
      output: page,
      isError: false,
      metadata: { status: 200, format: "html" },
    });
  });

  it("a body that is not markup is returned as it is", async () => {
    const json = '{"a": "<b>", "n": 1}';
    const kit = await kitWith(fakeFetch(() => new Response(json, { headers: { "content-type": "application/json" } })));
    expect((await kit.execute("webfetch", { url: "https://example.test/data.json", format: "text" })).output).toBe(
      json,
    );
  });

  it("a non-2xx status is 'HTTP <status>' with metadata.status", async () => {
    const kit = await kitWith(fakeFetch(() => new Response("missing", { status: 404 })));
    expect(await kit.execute("webfetch", { url: "https://example.test/gone" })).toEqual({
      output: "HTTP 404",
      isError: true,
      metadata: { status: 404 },
    });
  });

  it("checks its own arguments, with 'webfetch: …' messages, before any request", async () => {
    const f = html();
    const kit = await kitWith(f);
    expect(await kit.execute("webfetch", {})).toEqual({ output: "webfetch: url is required", isError: true });
    expect(await kit.execute("webfetch", { url: "" })).toEqual({ output: "webfetch: url is required", isError: true });
    expect((await kit.execute("webfetch", { url: "file:///etc/passwd" })).output).toBe(
      "webfetch: url must start with http:// or https://",
    );
    expect((await kit.execute("webfetch", { url: "https://example.test", format: "pdf" })).output).toBe(
      "webfetch: format must be one of text, markdown, html",
    );
    expect((await kit.execute("webfetch", { url: "https://example.test", timeout: -1 })).output).toBe(
      "webfetch: timeout must be a positive number of seconds",
    );
    expect(f.seen).toHaveLength(0);
    expect(kit.get("webfetch")?.inputSchema.required).toEqual(["url"]);
  });

  it("a timeout longer than a timer can wait (the model's, in seconds) waits instead of firing at once", async () => {
    const slow = fakeFetch(async ({ signal }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      signal?.throwIfAborted(); // as a real fetch rejects once its signal aborts
      return new Response("fine", { headers: { "content-type": "text/plain" } });
    });
    const kit = await kitWith(slow);
    const result = await kit.execute("webfetch", { url: "https://example.test", format: "text", timeout: 1e7 });
    expect(result).toMatchObject({ output: "fine", isError: false });
  });

  it("a fetch failure becomes 'webfetch: <message>'", async () => {
    const kit = await kitWith(fakeFetch(() => Promise.reject(new TypeError("network down"))));
    expect(await kit.execute("webfetch", { url: "https://example.test" })).toEqual({
      output: "webfetch: network down",
      isError: true,
    });
  });

  it("gives up after `timeout` seconds", async () => {
    const kit = await kitWith(hangingFetch());
    expect(await kit.execute("webfetch", { url: "https://example.test", timeout: 0.005 })).toEqual({
      output: "webfetch: timed out after 0.005s",
      isError: true,
    });
  });

  it("stops when ctx.signal aborts", async () => {
    const kit = await kitWith(hangingFetch());
    const controller = new AbortController();
    const running = kit.execute("webfetch", { url: "https://example.test" }, { signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    expect(await running).toEqual({ output: "webfetch: run cancelled", isError: true });
  });
});

describe("todowrite", () => {
  it("renders the list as [x]/[ ] lines with the todos in metadata", async () => {
    const kit = await kitWith();
    const todos = [
      { id: "1", text: "write tests", completed: true },
      { id: "2", text: "ship", completed: false },
    ];
    expect(await kit.execute("todowrite", { todos })).toEqual({
      output: "[x] write tests\n[ ] ship",
      isError: false,
      metadata: { todos },
    });
  });

  it("an empty list is '(no todos)'; a malformed one is refused", async () => {
    const kit = await kitWith();
    expect(await kit.execute("todowrite", { todos: [] })).toEqual({
      output: "(no todos)",
      isError: false,
      metadata: { todos: [] },
    });
    expect(await kit.execute("todowrite", { todos: [{ id: "1", text: "x" }] })).toEqual({
      output: "Invalid arguments for todowrite: todos[0].completed: is required",
      isError: true,
    });
  });
});
