// What a provider's failed reply becomes: the error body redacted (user, account and organisation ids) and
// an LlmHttpError with the status, the redacted body and Retry-After.
import { describe, expect, it } from "vitest";
import {
  isToolnexusError,
  LlmHttpError,
  llmHttpError,
  REDACTED_BODY_KEYS,
  REDACTION_PLACEHOLDER,
  redact,
} from "../../support/internals";

describe("redact", () => {
  it("exports the redacted body keys and the placeholder", () => {
    expect(REDACTED_BODY_KEYS).toEqual(["user_id", "account_id", "org_id", "organization"]);
    expect(REDACTION_PLACEHOLDER).toBe("«redacted»");
  });

  it("replaces JSON values of every redacted key, keeping the shape", () => {
    const body =
      '{"error":{"message":"quota","user_id":"u-123","account_id":42,"org_id":null,"organization":true,"code":"x"}}';
    expect(redact(body)).toBe(
      '{"error":{"message":"quota","user_id":"«redacted»","account_id":"«redacted»","org_id":"«redacted»","organization":"«redacted»","code":"x"}}',
    );
  });

  it("keeps the spacing before the value and handles escaped quotes inside the value", () => {
    expect(redact('{ "user_id" : "a\\"b", "n": 1 }')).toBe('{ "user_id" : "«redacted»", "n": 1 }');
    expect(redact('{"account_id": -1.5e3}')).toBe('{"account_id": "«redacted»"}');
  });

  it("redacts JSON carried inside a JSON string", () => {
    const body = '{"message":"upstream said {\\"user_id\\":\\"u-9\\"}"}';
    expect(redact(body)).not.toContain("u-9");
  });

  it("redacts form and query forms, then trims", () => {
    expect(redact("  user_id=abc&x=1&org_id=o-7 \n")).toBe("user_id=«redacted»&x=1&org_id=«redacted»");
    expect(redact("see https://x.test/?organization=acme&page=2")).toBe(
      "see https://x.test/?organization=«redacted»&page=2",
    );
    expect(redact("my_user_id=keep")).toBe("my_user_id=keep");
  });

  it("removes echoed credentials: bearer tokens, sk- keys, api_key values and given secrets", () => {
    const out = redact(
      'Bearer abc.def-123 rejected; key sk-ant-api03-XYZ_789 invalid; {"api_key":"k-1"} tok-555-secret',
      ["tok-555-secret"],
    );
    for (const secret of ["abc.def-123", "sk-ant-api03-XYZ_789", "k-1", "tok-555-secret"])
      expect(out).not.toContain(secret);
    expect(out).toBe('Bearer «redacted» rejected; key «redacted» invalid; {"api_key":"«redacted»"} «redacted»');
  });

  it("leaves a body without identifiers alone", () => {
    expect(redact('{"error":{"message":"The model is overloaded","type":"overloaded_error"}}')).toBe(
      '{"error":{"message":"The model is overloaded","type":"overloaded_error"}}',
    );
  });
});

describe("llmHttpError", () => {
  it("400 with user_id ⇒ status 400, id absent from body and message", async () => {
    const error = await llmHttpError(new Response('{"error":"bad","user_id":"u-42"}', { status: 400 }));
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(isToolnexusError(error)).toBe(true);
    expect(error).toMatchObject({ name: "LlmHttpError", code: "llm_http", status: 400, retryAfter: undefined });
    expect(error.body).toBe('{"error":"bad","user_id":"«redacted»"}');
    expect(error.message).toBe('LLM 400: {"error":"bad","user_id":"«redacted»"}');
    expect(error.message).not.toContain("u-42");
  });

  for (const status of [401, 403]) {
    it(`${status} ⇒ body "" and the credential is not in the message`, async () => {
      const error = await llmHttpError(new Response("invalid x-api-key sk-secret-123456", { status }));
      expect(error).toMatchObject({ status, body: "", message: `LLM ${status}` });
    });
  }

  it('429 with retry-after: 3 ⇒ retryAfter === "3" (raw header)', async () => {
    const error = await llmHttpError(new Response("", { status: 429, headers: { "retry-after": "3" } }));
    expect(error.retryAfter).toBe("3");
    expect(error.message).toBe("LLM 429");
    const raw = await llmHttpError(
      new Response("", { status: 429, headers: { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" } }),
    );
    expect(raw.retryAfter).toBe("Wed, 21 Oct 2015 07:28:00 GMT");
  });

  it("keeps a 500-char body whole in body and caps the message at 200 chars + …", async () => {
    const long = "x".repeat(500);
    const error = await llmHttpError(new Response(long, { status: 500 }));
    expect(error.body).toBe(long);
    expect(error.message).toBe(`LLM 500: ${"x".repeat(200)}…`);
  });

  it("redacts given secrets", async () => {
    const error = await llmHttpError(new Response("echo my-very-private-token", { status: 422 }), [
      "my-very-private-token",
    ]);
    expect(error.body).toBe("echo «redacted»");
  });
});
