// The runtimes test/mcp/checks/runtimes.test.mjs drives the MCP client scenarios in (test/mcp/runtimes/), each as
// `open()`: a fresh isolate / page load / process whose `run(steps)` runs steps and resolves `{ id, results }`
// (`id` tells two isolates, page loads or processes apart). What a runtime starts is pushed on
// `ctx.cleanups`; its files go under `ctx.tmp`.
//   bundle()             every bundle, built once with esbuild
//   workerd(ctx, js)     Miniflare without nodejs_compat, KV persisted under `tmp`: each open() a fresh instance
//   chromium(ctx, js)    /usr/bin/chromium through Playwright, a page on its own 127.0.0.1 origin: open() reloads
//   deno(ctx, js)        the `deno` npm package, Deno KV under `tmp`: each run a `deno run` of its own
//   phase(config)        a phase of a durable run in its own Node process (test/mcp/phases/run.mjs)
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

export const COMPATIBILITY_DATE = "2026-04-20";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const DIR = join(root, "test/mcp/runtimes");

/** Every bundle, built once: the Worker, the Deno script and the server Worker alike, and the page's. */
export async function bundle() {
  const common = { bundle: true, format: "esm", write: false, logLevel: "silent", outdir: "/out" };
  const [neutral, browser] = await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ["worker", "deno", "server-worker"].map((n) => join(DIR, `${n}.mjs`)),
      platform: "neutral",
      mainFields: ["module", "main"],
      conditions: ["workerd", "worker", "browser"],
    }),
    esbuild.build({ ...common, entryPoints: [join(DIR, "page.mjs")], platform: "browser" }),
  ]);
  const out = {};
  for (const file of [...neutral.outputFiles, ...browser.outputFiles])
    out[file.path.split("/").at(-1).replace(/\.js$/, "")] = file.text;
  return out;
}

export function workerd({ tmp, cleanups }, script) {
  const kvPersist = join(tmp, "kv");
  return {
    storage: "KV",
    second: "a fresh Miniflare instance sharing the KV persistence",
    async open() {
      const { Miniflare } = await import("miniflare");
      const mf = new Miniflare({
        modules: true,
        script,
        compatibilityDate: COMPATIBILITY_DATE,
        compatibilityFlags: [],
        kvNamespaces: ["RUNS"],
        kvPersist,
        host: "127.0.0.1", // its entry socket too, though the checks reach it through dispatchFetch
        cf: false,
      });
      cleanups.push(() => mf.dispose());
      const id = crypto.randomUUID();
      return {
        id,
        async run(list) {
          const res = await mf.dispatchFetch("http://worker/", { method: "POST", body: JSON.stringify(list) });
          if (!res.ok) throw new Error(`the Worker answered ${res.status}: ${await res.text()}`);
          return { id, results: await res.json() };
        },
        close: () => mf.dispose(),
      };
    },
  };
}

export async function chromium({ cleanups }, script) {
  const { chromium: launcher } = await import("playwright");
  // the page's own origin (another port than the MCP server's): the server must allow it (CORS)
  const site = createServer((req, res) => {
    if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    else res.writeHead(200, { "content-type": "text/html" }).end('<script type="module" src="/page.js"></script>');
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (site.closeAllConnections(), site.close(resolve))));
  const browser = await launcher.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  let loads = 0;
  return {
    storage: "localStorage",
    second: "the page after page.reload()",
    async open() {
      if (loads++ === 0) await page.goto(`http://127.0.0.1:${site.address().port}/`);
      else await page.reload();
      await page.waitForFunction(() => typeof globalThis.mcpSteps === "function");
      const id = await page.evaluate(() => {
        globalThis.loadId ??= crypto.randomUUID(); // one per page load: a reload forgets it
        return globalThis.loadId;
      });
      return {
        id,
        async run(list) {
          const results = await page.evaluate((steps) => globalThis.mcpSteps(steps), list);
          if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
          return { id, results };
        },
        close: async () => {},
      };
    },
  };
}

export function deno(ctx, script) {
  const file = join(ctx.tmp, "deno-steps.mjs");
  const kv = join(ctx.tmp, "deno-kv.sqlite3");
  return {
    storage: "Deno KV",
    second: "a second `deno run` process",
    async open() {
      writeFileSync(file, script);
      return {
        run: (list) => denoRun(ctx, file, kv, list),
        close: async () => {},
      };
    },
  };
}

/** Runs `command` to its end (killed after a minute); resolves with the JSON of the last line it printed. */
function lastJsonLine(what, command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1)));
      } catch {
        reject(new Error(`${what} exited ${code}: ${out}\n${err}`));
      }
    });
  });
}

export async function denoRun({ tmp }, file, kv, list) {
  const args = ["run", "--quiet", "--unstable-kv", "--allow-net=127.0.0.1", `--allow-read=${tmp}`];
  args.push(`--allow-write=${tmp}`, "--no-prompt", file, kv, JSON.stringify(list));
  const env = { ...process.env, DENO_DIR: join(tmp, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  const { pid, results } = await lastJsonLine("deno", join(root, "node_modules/.bin/deno"), args, { cwd: tmp, env });
  return { id: pid, results };
}

/** Runs a phase of a durable run in its own Node process (test/mcp/phases/run.mjs); resolves with its JSON. */
export function phase(config) {
  return lastJsonLine("phase", process.execPath, [join(root, "test/mcp/phases/run.mjs"), JSON.stringify(config)], {
    cwd: root,
  });
}
