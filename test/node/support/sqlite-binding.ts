// The SQLite binding this Node has: node:sqlite's DatabaseSync where it loads (Node ≥ 22.13), else
// better-sqlite3 (Node 20). The node project runs on both, so each run proves the adapter on one of them.
import type { SqliteDatabaseLike } from "toolnexus";

export interface OpenDatabase extends SqliteDatabaseLike {
  close(): void;
}

type Open = (file: string) => OpenDatabase;

async function loadBinding(): Promise<{ name: string; open: Open }> {
  const builtin = "node:sqlite"; // a variable: Node 20 has no such module, and its types do not name it
  try {
    const { DatabaseSync } = (await import(builtin)) as { DatabaseSync: new (file: string) => OpenDatabase };
    return { name: "node:sqlite", open: (file) => new DatabaseSync(file) };
  } catch {
    const { default: Database } = await import("better-sqlite3");
    return { name: "better-sqlite3", open: (file) => new Database(file) as unknown as OpenDatabase };
  }
}

export const binding: { name: string; open: Open } = await loadBinding();
