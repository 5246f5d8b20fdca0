// The one conditional write every stored record goes through: compare-and-set where the adapter has it
// (atomic adapters make it linearizable), a best-effort read-compare-write where it has not (documented).
import type { RunStorage, SetOptions } from "../storage/contract";

/** Writes `value` under `key` only if the stored value is still `expected`; resolves whether it wrote. */
export async function swap(
  storage: RunStorage,
  key: string,
  expected: string | undefined,
  value: string,
  opts?: SetOptions,
): Promise<boolean> {
  if (storage.compareAndSet) return storage.compareAndSet(key, expected, value, opts);
  if ((await storage.get(key)) !== expected) return false;
  await storage.set(key, value, opts);
  return true;
}
