// Conversations kept in the client's storage: `{ v: 1, messages, pendingRunId? }` under `conversation:<id>`.
// While a turn is suspended the stored transcript stays as it was before that turn (never unbalanced) and
// names the run it waits on; the resumed run's balanced transcript replaces it. Loaded on first use.
import { RunStateError, StorageError } from "../errors";
import { conversationKey, runKey } from "../loop/context";
import type { RunStorage } from "../types";

export interface ConversationRecord {
  v: 1;
  messages: unknown[];
  pendingRunId?: string;
}

export function conversationStore(storage: RunStorage) {
  async function load(id: string): Promise<ConversationRecord> {
    const key = conversationKey(id);
    const raw = await storage.get(key).catch((cause) => Promise.reject(new StorageError("get", key, cause)));
    if (raw === undefined) return { v: 1, messages: [] };
    try {
      const value = JSON.parse(raw) as ConversationRecord;
      if (value?.v === 1 && Array.isArray(value.messages)) return value;
    } catch {}
    throw new RunStateError(`toolnexus: stored conversation "${id}" is corrupt — forget(id) discards it`);
  }

  async function save(id: string, value: Omit<ConversationRecord, "v">): Promise<void> {
    const key = conversationKey(id);
    const raw = JSON.stringify({ v: 1, ...value });
    await storage.set(key, raw).catch((cause) => Promise.reject(new StorageError("set", key, cause, raw)));
  }

  async function forget(id: string): Promise<void> {
    const conv = await load(id).catch(() => undefined);
    if (conv?.pendingRunId) await storage.delete(runKey(conv.pendingRunId));
    await storage.delete(conversationKey(id));
  }

  return { load, save, forget };
}
