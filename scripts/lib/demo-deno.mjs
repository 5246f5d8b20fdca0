// The demo of `npm start` under Deno.serve instead of workerd: the same page, the same createRunHandler
// endpoint (examples/worker/demo.ts's demoFetch), runs halting into Deno KV, the tools' own records in Deno
// KV too (behind the few KV-namespace methods they use), and the tools of the MCP server at <mcp url> (the
// demo's trip planner, which test/demo/launcher.mjs serves on 127.0.0.1 as `npm start` does). Run by
// test/demo/launcher.mjs (startDeno):
//   deno run --unstable-kv --unstable-sloppy-imports … scripts/lib/demo-deno.mjs <port> <kv path> <dist dir> [mcp url]
import { denoKvStorage } from "toolnexus";
import { demoFetch } from "../../examples/worker/demo.ts";

const [port, path, dist, MCP_URL] = Deno.args;
const kv = await Deno.openKv(path);

/** The KV namespace methods the demo's tools and stats use, over Deno KV. */
const RUNS = {
  get: async (key) => (await kv.get(["demo", key])).value ?? null,
  put: async (key, value, opts) =>
    void (await kv.set(["demo", key], value, opts?.expirationTtl ? { expireIn: opts.expirationTtl * 1000 } : {})),
  list: async ({ prefix = "" } = {}) => {
    const keys = [];
    for await (const entry of kv.list({ prefix: ["demo"] }))
      if (String(entry.key[1]).startsWith(prefix)) keys.push({ name: String(entry.key[1]) });
    return { keys, list_complete: true };
  },
};
const runs = { storage: denoKvStorage({ kv, prefix: ["runs"] }), name: "Deno KV" };
// the page's single files: the SDK and its chat element
const files = new Map();
for (const name of ["toolnexus.js", "toolnexus-widget.js"])
  files.set(`/${name}`, await Deno.readFile(`${dist}/${name}`));

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(port),
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`),
  },
  (request) => {
    const file = files.get(new URL(request.url).pathname);
    if (file) return new Response(file, { headers: { "content-type": "text/javascript; charset=utf-8" } });
    return demoFetch(request, { RUNS, MCP_URL }, runs);
  },
);
