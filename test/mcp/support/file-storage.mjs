// A RunStorage over a directory, one file per key, so a run halted by one process can be resumed by another.
// compareAndSet holds a lock file (created exclusively) while it compares and writes: atomic across processes.
import { mkdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export function fileStorage(dir) {
  mkdirSync(dir, { recursive: true });
  const path = (key) => join(dir, `${encodeURIComponent(key)}.json`);
  const read = (key) => {
    try {
      return readFileSync(path(key), "utf8");
    } catch {
      return undefined;
    }
  };
  async function locked(fn) {
    const lock = join(dir, ".lock");
    for (let i = 0; ; i++) {
      try {
        closeSync(openSync(lock, "wx"));
        break;
      } catch (error) {
        if (error.code !== "EEXIST" || i > 500) throw error;
        await sleep(5);
      }
    }
    try {
      return fn();
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return {
    capabilities: { atomic: true, ttl: false },
    get: async (key) => read(key),
    set: (key, value) => locked(() => writeFileSync(path(key), value)),
    delete: (key) => locked(() => rmSync(path(key), { force: true })),
    compareAndSet: (key, expected, value) =>
      locked(() => {
        if (read(key) !== expected) return false;
        writeFileSync(path(key), value);
        return true;
      }),
  };
}
