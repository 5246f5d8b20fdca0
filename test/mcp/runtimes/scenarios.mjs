// The client side of the MCP scenarios, for every runtime: web-standard APIs only, bundled by
// test/mcp/checks/runtimes.test.mjs (once per runtime family) and driven step by step from Node — in workerd
// through a Worker's fetch, in Chromium through page.evaluate, in Deno through a `deno run` per process.
// Each step takes and returns plain JSON; `storage` is the runtime's own RunStorage (KV, localStorage, Deno KV),
// so a run halted in one isolate, page load or process is resumed in the next one.
import { answerForm } from "../../../dist/index.js";
import { connectMcp } from "../../../dist/mcp.js";
import { scriptedClient, summary } from "../support/scripted.mjs";

/** The scripted model: its first turn calls `calls`, then it answers with what the tool results said. */
const scripted = (calls, options) => scriptedClient({ calls, ...options });

async function connected(url, fn) {
  const conn = await connectMcp({ name: "test server", url });
  if (conn.status !== "connected") throw conn.error;
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}

const tool = (conn, name) => {
  const found = conn.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} in ${conn.tools.map((t) => t.name)}`);
  return found;
};

const deploy = (env) => [{ name: "test_server_deploy", args: { env } }];

export const steps = {
  /** Connects, lists, and calls three plain tools (one with an `x-mcp-header` argument). */
  listCall: ({ url }) =>
    connected(url, async (conn) => {
      const echo = await tool(conn, "test_server_echo").execute({ text: "hi" }, {});
      const add = await tool(conn, "test_server_add").execute({ a: 2, b: 3 }, {});
      const regional = await tool(conn, "test_server_regional").execute({ region: "eu-west-1" }, {});
      return {
        era: conn.era,
        names: conn.tools.map((t) => t.name).sort(),
        sources: [...new Set(conn.tools.map((t) => t.source))],
        outputs: [echo, add, regional].map((r) => [r.output, r.isError]),
      };
    }),

  /** A form elicitation answered inline through waitFor. */
  inline: ({ url, env }) =>
    connected(url, async (conn) => {
      const seen = [];
      const waitFor = async (req) => {
        seen.push({ kind: req.kind, prompt: req.prompt, confirm: req.data?.schema?.properties?.confirm });
        return answerForm(req.id, { confirm: true });
      };
      const result = await scripted(deploy(env), { waitFor }).run("go", { toolkit: conn.tools });
      return { seen, status: result.status, text: result.text };
    }),

  /** Decline, then cancel, answered inline: the server reports each. */
  declineCancel: ({ url, env }) =>
    connected(url, async (conn) => {
      const refuse = (reason) => async (req) => ({ id: req.id, ok: false, reason });
      const declined = await scripted(deploy(env), { waitFor: refuse("declined") }).run("go", { toolkit: conn.tools });
      const cancelled = await scripted(deploy(env), { waitFor: refuse("cancelled") }).run("go", {
        toolkit: conn.tools,
      });
      return { declined: declined.text, cancelled: cancelled.text };
    }),

  /** A run without waitFor: it halts into `storage`. */
  halt: ({ url, env }, storage) =>
    connected(url, async (conn) =>
      summary(await scripted(deploy(env), { storage }).run("go", { toolkit: conn.tools })),
    ),

  /** Resumes a halted run (in another isolate, page load or process than the halt). */
  resume: ({ url, runId, answer }, storage) =>
    connected(url, async (conn) => {
      try {
        return summary(await scripted([], { storage }).resume(runId, answer, { toolkit: conn.tools }));
      } catch (error) {
        return { error: { name: error.name, code: error.code, message: error.message } };
      }
    }),

  /** Alters the requestState kept in a halted run's stored record (what an attacker with the storage could do). */
  tamper: async ({ runId }, storage) => {
    const key = `run:${runId}`;
    const text = await storage.get(key);
    if (text === undefined) throw new Error(`no stored record under ${key}`);
    let changed = 0;
    const rewrite = (value) => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== "object") return value;
      const entries = Object.entries(value).map(([k, v]) => {
        if (k !== "requestState" || typeof v !== "string") return [k, rewrite(v)];
        changed++;
        return [k, `${v.slice(0, -4)}AAAA`];
      });
      return Object.fromEntries(entries);
    };
    await storage.set(key, JSON.stringify(rewrite(JSON.parse(text))));
    return { changed };
  },
};

/** Runs `[{ step, args }]` in order; a step that throws is reported, and the rest still run. */
export async function runSteps(list, storage) {
  const out = [];
  for (const { step, args } of list) {
    try {
      out.push(await steps[step](args, storage));
    } catch (error) {
      out.push({ thrown: String(error?.stack ?? error) });
    }
  }
  return out;
}
