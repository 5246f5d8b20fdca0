// Replies a provider (or what stands in front of it) should not send, in every style: a 200 whose body is
// not JSON (a proxy’s HTML sign-in page, an empty body, a cut-off reply) and an error object nested 10,000+
// levels deep. Each is a typed StreamError saying what to check, in bounded work — never a bare SyntaxError
// or RangeError — and no credential of the client is in its text.
import { describe, expect, it } from "vitest";
import { createClient, StreamError } from "toolnexus";

const STYLES = ["openai", "anthropic", "gemini", "openai-responses"] as const;
type Style = (typeof STYLES)[number];
const KEY = "sk-bad-replies-KEY-0123456789";

function clientFor(style: Style, body: string, type: string) {
  const fetch = (async () =>
    new Response(body, { status: 200, headers: { "content-type": type } })) as typeof globalThis.fetch;
  return createClient({ baseUrl: "http://127.0.0.1:9/v1", style, model: "m", apiKey: KEY, retries: 0, fetch });
}

/** What a run fails with, and a translate where the style has one (both unstreamed). */
async function failures(style: Style, body: string, type: string): Promise<unknown[]> {
  const client = clientFor(style, body, type);
  const run = await client.run("hi").catch((e: unknown) => e);
  if (style !== "openai" && style !== "anthropic") return [run];
  const translate = client.translate({ messages: [{ role: "user", content: "hi" }] });
  return [run, await translate.catch((e: unknown) => e)];
}

const SIGN_IN = `<!doctype html><html><head><title>Sign in</title></head><body>Your key ${KEY} expired — sign in again to continue to the gateway. ${"x".repeat(2000)}</body></html>`;

describe("a 200 whose body is not JSON", () => {
  for (const style of STYLES) {
    it(`${style}: an HTML sign-in page is a StreamError naming its content type and its start, never the key`, async () => {
      for (const error of await failures(style, SIGN_IN, "text/html; charset=utf-8")) {
        expect(error).toBeInstanceOf(StreamError);
        const { code, message } = error as StreamError;
        expect(code).toBe("stream");
        expect(message).toContain("not JSON");
        expect(message).toContain("content-type: text/html; charset=utf-8");
        expect(message).toContain('starts "<!doctype html><html><head><title>Sign in');
        expect(message).toContain("check baseUrl");
        expect(message).not.toContain(KEY);
        expect(message.length).toBeLessThan(400);
      }
    });

    it(`${style}: an empty body and a cut-off reply are StreamErrors too`, async () => {
      const empty = await failures(style, "", "application/json");
      for (const error of empty) {
        expect(error).toBeInstanceOf(StreamError);
        expect((error as StreamError).message).toContain("the body is empty");
      }
      for (const error of await failures(style, '{"id":"resp_1","choices":[{"mess', "application/json")) {
        expect(error).toBeInstanceOf(StreamError);
        expect((error as StreamError).message).toContain('starts "{\\"id\\":\\"resp_1\\"');
      }
    });
  }
});

/** An error object nested `depth` levels deep, as JSON text (built without recursion). */
const deep = (depth: number) => `${'{"inner":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;

/** The provider's error event of `style`, carrying `error` (JSON text). */
function errorEvent(style: Style, error: string): string {
  if (style === "anthropic" || style === "openai-responses") return `{"type":"error","error":${error}}`;
  return `{"error":${error}}`;
}

describe("a provider error nested 10,000+ levels deep", () => {
  for (const style of STYLES) {
    it(`${style}: unstreamed and streamed, a StreamError of bounded length, no RangeError`, async () => {
      const body = errorEvent(style, deep(20_000));
      const errors = await failures(style, body, "application/json");
      const streamed = clientFor(style, `data: ${body}\n\n`, "text/event-stream");
      const events = async () => {
        for await (const _ of streamed.stream("hi"));
      };
      errors.push(await events().catch((e: unknown) => e));
      for (const error of errors) {
        expect(error).toBeInstanceOf(StreamError);
        const { message } = error as StreamError;
        expect(message).toContain("the provider reported an error");
        expect(message).toContain('{"inner":{"inner":');
        expect(message.length).toBeLessThan(400);
      }
    });
  }
});
