// What the SQL adapters (postgresStorage, d1Storage) share: the table name check and its quoting.
import { ToolnexusError } from "../errors";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * `table` (optionally `schema.table`) double-quoted for SQL, after checking each part is a plain
 * identifier — a name is spliced into statements, so anything else is refused rather than escaped.
 */
export function quoteTable(adapter: string, table: string, qualified: boolean): string {
  const parts = typeof table === "string" ? table.split(".") : [];
  const valid = parts.length >= 1 && parts.length <= (qualified ? 2 : 1) && parts.every((p) => IDENTIFIER.test(p));
  if (!valid) {
    const shape = qualified ? "a name like runs or app.runs" : "a name like runs";
    throw new ToolnexusError(
      "config",
      `toolnexus: ${adapter} table must be ${shape} (letters, digits and _, not starting with a digit, at most 63 characters), got ${JSON.stringify(table)}`,
    );
  }
  return parts.map((p) => `"${p}"`).join(".");
}
