// redisStorage against a real Redis (REDIS_URL, started by scripts/test-databases.mjs) through node-redis,
// ioredis and @upstash/redis (over UPSTASH_URL, a local stand-in for Upstash's REST API on that Redis),
// with node:test — the published contract, as a user would run it.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "redis";
import IORedis from "ioredis";
import { Redis as Upstash } from "@upstash/redis";
import { redisStorage } from "toolnexus";
import { crashMatrix, raceResumes, raceSweepers, storageContract } from "toolnexus/testing";

const { REDIS_URL: url, UPSTASH_URL, UPSTASH_TOKEN } = process.env;
assert.ok(
  url && UPSTASH_URL && UPSTASH_TOKEN,
  "REDIS_URL and UPSTASH_URL/TOKEN are set (run scripts/test-databases.mjs)",
);
const nodeRedis = await createClient({ url }).connect();
const ioredis = new IORedis(url);
// Upstash's defaults, automatic JSON deserialization included: values must still come back as strings
const upstash = new Upstash({ url: UPSTASH_URL, token: UPSTASH_TOKEN, enableTelemetry: false });
after(async () => {
  await nodeRedis.quit();
  ioredis.disconnect();
});

const tag = () => `${crypto.randomUUID()}:`;
storageContract("redisStorage over node-redis", () => redisStorage({ client: nodeRedis, prefix: `nr:${tag()}` }), {
  describe,
  it,
  ttl: "wait",
});
storageContract("redisStorage over ioredis", () => redisStorage({ client: ioredis, prefix: `io:${tag()}` }), {
  describe,
  it,
  ttl: "wait",
});
storageContract("redisStorage over @upstash/redis", () => redisStorage({ client: upstash, prefix: `up:${tag()}` }), {
  describe,
  it,
  ttl: "wait",
});
storageContract(
  "redisStorage over a command function",
  () => redisStorage({ command: (args) => nodeRedis.sendCommand(args), prefix: `fn:${tag()}` }),
  {
    describe,
    it,
    ttl: "wait",
  },
);

crashMatrix("redisStorage over node-redis", () => redisStorage({ client: nodeRedis, prefix: `crash:${tag()}` }), {
  describe,
  it,
});

describe("redisStorage", () => {
  it("keeps values verbatim under the prefix, so other clients read them, and asks Redis to expire them (PX)", async () => {
    const prefix = tag();
    const storage = redisStorage({ client: ioredis, prefix });
    await storage.set("run:1", '{"v":1}', { ttlSeconds: 30 });
    await storage.set("forever", "1234");
    assert.equal(await nodeRedis.get(`${prefix}run:1`), '{"v":1}');
    const pttl = await nodeRedis.pTTL(`${prefix}run:1`);
    assert.ok(pttl > 25_000 && pttl <= 30_000, `pttl ${pttl}`);
    assert.equal(await nodeRedis.pTTL(`${prefix}forever`), -1);
    assert.equal(await redisStorage({ client: upstash, prefix }).get("forever"), "1234"); // not the number 1234
  });

  it("a set without ttl clears an earlier expiry, and compareAndSet with one sets it", async () => {
    const prefix = tag();
    const storage = redisStorage({ client: nodeRedis, prefix });
    await storage.set("k", "v", { ttlSeconds: 60 });
    await storage.set("k", "v2");
    assert.equal(await nodeRedis.pTTL(`${prefix}k`), -1);
    assert.equal(await storage.compareAndSet("k", "v2", "v3", { ttlSeconds: 60 }), true);
    assert.ok((await nodeRedis.pTTL(`${prefix}k`)) > 55_000);
  });

  it("keeps strings UTF-8 cannot hold (lone surrogates) intact", async () => {
    const storage = redisStorage({ client: upstash, prefix: tag() });
    for (const value of ["\ud800 lone high", "lone low \udc00", "\u0001", "nul\u0000"]) {
      await storage.set("k\ud800", value);
      assert.equal(await storage.get("k\ud800"), value);
    }
  });

  it("needs a client it knows or a command function", () => {
    assert.throws(() => redisStorage({}), /node-redis, ioredis or @upstash\/redis/);
    assert.throws(() => redisStorage({ client: { get() {} } }), /command/);
  });

  it("two sweepers over node-redis, ioredis and Upstash at once: every due run continued once, by one of them", async () => {
    const prefix = tag();
    const clients = [nodeRedis, ioredis, upstash];
    let i = 0;
    const make = () => redisStorage({ client: clients[i++ % 3], prefix });
    const outcome = await raceSweepers(make(), { runs: 10, sweepers: 2, make });
    assert.equal(new Set(outcome.continued).size, 10);
    assert.deepEqual([outcome.continued.length, outcome.continuations, outcome.executions], [10, 10, 0]);
  });

  it("100 resumes from node-redis, ioredis and Upstash clients at once: the tool runs once", async () => {
    const prefix = tag();
    const clients = [nodeRedis, ioredis, upstash];
    let i = 0;
    const make = () => redisStorage({ client: clients[i++ % 3], prefix });
    const outcome = await raceResumes(make(), 100, make);
    assert.deepEqual({ executions: outcome.executions, fulfilled: outcome.fulfilled }, { executions: 1, fulfilled: 1 });
    assert.deepEqual(
      outcome.rejected.filter((c) => c !== "run_conflict"),
      [],
    );
    assert.equal(JSON.parse(outcome.stored).status, "done");
  });
});
