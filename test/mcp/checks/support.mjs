// What the MCP check files share: the package under test as built (dist/), the servers the globalSetup started
// (their URLs by inject), `check(name, fn)` — a test, so the check bodies read as they did in the script that
// ran them — and the cleanups a file runs after its last check, in reverse.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject, it } from "vitest";

export const root = fileURLToPath(new URL("../../..", import.meta.url));
export const { connectMcp } = await import(join(root, "dist/mcp.js"));
export const toolnexus = await import(join(root, "dist/index.js"));

/** One check: a test named `name`. */
export function check(name, fn) {
  it(name, fn);
}

/**
 * The test server the globalSetup serves — `"cors"`: the one that answers other origins (a page's fetch), for
 * the runtimes' checks — its MCP `url`, and its `stats` and `expire` control routes.
 */
export function testServer(which = "plain") {
  const { url, base } = inject("mcp")[which === "cors" ? "corsServer" : "testServer"];
  return {
    url,
    base,
    stats: () => fetch(`${base}/stats`).then((r) => r.json()),
    expire: () => fetch(`${base}/control/expire`, { method: "POST" }),
  };
}

/** server-everything's streamable HTTP URL. */
export const everythingUrl = () => inject("mcp").everything;

export const form = (id, fields) =>
  toolnexus.answerForm ? toolnexus.answerForm(id, fields) : { id, ok: true, data: fields };
export const find = (conn, name) =>
  conn.tools.find((t) => t.name === name) ?? assert.fail(`no tool ${name} in ${conn.tools.map((t) => t.name)}`);

/** Runs `cleanups` in reverse, each failure ignored (a server already gone is not a failed check). */
export async function runCleanups(cleanups) {
  for (const fn of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
}
