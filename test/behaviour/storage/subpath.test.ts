// toolnexus/storage holds every storage adapter the root re-exports for this release (a runtime that loads
// the single-file bundle beside dist/storage.js holds two copies of the same code, so the test asks for the
// names): a run kept through the subpath's adapter is the one a client from the root reads.
import { describe, expect, it } from "vitest";
import * as root from "toolnexus";
import * as storage from "toolnexus/storage";

/** Each adapter as the subpath and the root export it. */
const ADAPTERS: [string, unknown, unknown][] = [
  ["memoryStorage", storage.memoryStorage, root.memoryStorage],
  ["webStorage", storage.webStorage, root.webStorage],
  ["kvStorage", storage.kvStorage, root.kvStorage],
  ["durableObjectStorage", storage.durableObjectStorage, root.durableObjectStorage],
  ["RunStoreObject", storage.RunStoreObject, root.RunStoreObject],
  ["denoKvStorage", storage.denoKvStorage, root.denoKvStorage],
  ["postgresStorage", storage.postgresStorage, root.postgresStorage],
  ["redisStorage", storage.redisStorage, root.redisStorage],
  ["d1Storage", storage.d1Storage, root.d1Storage],
  ["sqliteStorage", storage.sqliteStorage, root.sqliteStorage],
];

describe("toolnexus/storage", () => {
  it("exports every adapter the root re-exports, under the same name", () => {
    for (const [name, fromSubpath, fromRoot] of ADAPTERS) {
      expect(typeof fromSubpath, name).toBe("function");
      expect(typeof fromRoot, name).toBe("function");
    }
  });

  it("exports nothing but storage: no client, no run handler, no answers", () => {
    const names = Object.keys(storage);
    expect(names.filter((name) => !/Storage$|^RunStoreObject$/.test(name))).toEqual([]);
    expect(names).toHaveLength(ADAPTERS.length);
  });

  it("an adapter from the subpath keeps a client's halted run", async () => {
    const kept: root.RunStorage = storage.memoryStorage();
    const client = root.createInProcessClient({
      model: "m",
      storage: kept,
      generate: () => ({ toolCalls: [{ id: "c1", name: "ask", arguments: {} }] }),
    });
    const ask = root.defineTool({
      name: "ask",
      description: "asks",
      execute: () => root.pending({ kind: "question", prompt: "Which?" }),
    });
    const halted = await client.run("go", { toolkit: [ask] });
    if (halted.status !== "pending") throw new Error(`expected a halted run, got ${halted.status}`);
    expect((await client.inspect(halted.runId))?.status).toBe("pending");
  });
});
