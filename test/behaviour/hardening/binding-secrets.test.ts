// A connection string passed where a storage adapter wants a client or a binding is refused with a
// ConfigError that names the kind of value it got — never the value: the string holds a password, and an
// error's message, its String() and its JSON end up in logs.
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  d1Storage,
  denoKvStorage,
  durableObjectStorage,
  kvStorage,
  postgresStorage,
  redisStorage,
} from "toolnexus";

const PASSWORD = "s3cret-PASSWORD-in-the-url";
const URLS = [`postgres://app:${PASSWORD}@db.internal:5432/runs`, `rediss://default:${PASSWORD}@cache.internal:6380`];

const ADAPTERS: [string, (url: string) => unknown][] = [
  ["postgresStorage { client }", (url) => postgresStorage({ client: url as never })],
  ["redisStorage { client }", (url) => redisStorage({ client: url as never })],
  ["d1Storage { database }", (url) => d1Storage({ database: url as never })],
  ["kvStorage { binding }", (url) => kvStorage({ binding: url as never })],
  ["denoKvStorage { kv }", (url) => denoKvStorage({ kv: url as never })],
  ["durableObjectStorage(url)", (url) => durableObjectStorage(url as never)],
];

function refusal(make: () => unknown): ConfigError {
  try {
    make();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("a connection string where a client belongs", () => {
  for (const [what, make] of ADAPTERS) {
    it(`${what}: the error names its kind and never shows it`, () => {
      for (const url of URLS) {
        const error = refusal(() => make(url));
        expect(error.code).toBe("config");
        expect(error.message).toContain("a string");
        for (const text of [error.message, String(error), JSON.stringify(error), JSON.stringify({ ...error })]) {
          expect(text).not.toContain(PASSWORD);
          expect(text).not.toContain("db.internal");
          expect(text).not.toContain("cache.internal");
        }
      }
    });
  }

  it("a number or an object is named by its kind (an object by its first keys, not their values)", () => {
    expect(refusal(() => postgresStorage({ client: 5432 as never })).message).toContain("a number");
    const message = refusal(() => redisStorage({ client: { url: URLS[1] } as never })).message;
    expect(message).toContain("{ url }");
    expect(message).not.toContain(PASSWORD);
  });
});
