// What Deno users get from the shipped bundle, with the `deno` npm package and nothing but 127.0.0.1:
//   - dist/ served on loopback; `deno check` of a script importing dist/toolnexus.js by URL passes when the
//     script uses the types right and fails, naming the real types, when it misuses them — the bundle's
//     `// @ts-self-types="./index.d.ts"` first line is what makes Deno fetch the declarations;
//   - examples/deno/from-url.ts run with its CDN URL mapped onto that server, and refused without import access;
//   - `deno publish --dry-run` of jsr.json (offline: the package has no dependencies), and jsr.json
//     agreeing with package.json.
// Prints `Deno types & JSR: N passed, N failed`.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-deno-types-"));
const { check, fail, cleanup, finish, cleanups } = createChecks("Deno types & JSR", { tmp });
const deno = join(root, "node_modules/.bin/deno");
if (!existsSync(join(root, "dist/toolnexus.js")))
  spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });

function run(args, { cwd = tmp, denoDir = join(tmp, "deno-dir") } = {}) {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: tmp,
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    DENO_NO_PROMPT: "1",
    DENO_DIR: denoDir,
  };
  return new Promise((resolve) => {
    execFile(deno, args, { cwd, env, timeout: 120_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      let code = 0;
      if (error) code = typeof error.code === "number" ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** dist/ on 127.0.0.1, recording each path asked for. */
async function serveDist() {
  const requests = [];
  const types = { ".js": "text/javascript", ".ts": "application/typescript" };
  const server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? "/", "http://x").pathname).replace(/^(\.\.[/\\])+/, "");
    requests.push(path);
    try {
      const body = readFileSync(join(root, "dist", path));
      res
        .writeHead(200, { "content-type": types[path.slice(path.lastIndexOf("."))] ?? "application/octet-stream" })
        .end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { host: `127.0.0.1:${server.address().port}`, requests };
}

const script = (
  url,
  body,
) => `import { answerOutput, createClient, createInProcessClient, defineTool, memoryStorage, pending } from "${url}";
import type { Client, GenerateRequest, RunResult } from "${url}";
${body}
`;

const RIGHT = `const ask = defineTool({
  name: "ask",
  description: "Asks for a city",
  execute: async (_args, ctx) => (ctx?.answer ? \`Sunny in \${ctx.answer.data?.output}\` : pending({ kind: "input", prompt: "Which city?" })),
});
const generate = ({ messages }: GenerateRequest) => {
  const last = messages.at(-1) as { role: string; content: string };
  return last.role === "tool" ? { content: last.content } : { toolCalls: [{ name: "ask", arguments: {} }] };
};
const client: Client = createInProcessClient({ model: "m", generate, storage: memoryStorage() });
const halted: RunResult = await client.run("Weather?", { toolkit: [ask] });
if (halted.status !== "pending") throw new Error("expected the tool to ask");
const done: RunResult = await client.resume(halted.runId, answerOutput(halted.pending.id, "Chennai"), { toolkit: [ask] });
const remote: Client = createClient({ style: "anthropic", baseUrl: "http://127.0.0.1:9/v1", model: "m" });
console.log(halted.status, done.status, done.text, typeof remote.run);
`;
const WRONG = `const client = createClient({ style: "cohere", baseUrl: "http://127.0.0.1:9/v1", model: "m" });
const n: number = createInProcessClient({ model: "m", generate: () => ({ content: "hi" }) });
const status: RunResult["status"] = "finished";
console.log(client, n, status, answerOutput, defineTool, memoryStorage, pending);
`;

async function urlImportTypes() {
  const { host, requests } = await serveDist();
  const url = `http://${host}/toolnexus.js`;
  writeFileSync(join(tmp, "right.ts"), script(url, RIGHT));
  writeFileSync(join(tmp, "wrong.ts"), script(url, WRONG));
  const allow = `--allow-import=${host}`;

  await check("dist/toolnexus.js opens with @ts-self-types naming declarations that sit beside it", async () => {
    const first = readFileSync(join(root, "dist/toolnexus.js"), "utf8").split("\n", 1)[0];
    assert.equal(first, '// @ts-self-types="./index.d.ts"');
    assert.ok(existsSync(join(root, "dist/index.d.ts")));
  });

  await check("deno check passes a script that imports the bundle by URL and uses its types right", async () => {
    requests.length = 0;
    const out = await run(["check", "--no-lock", allow, "right.ts"]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      [...new Set(requests)].sort(),
      ["/index.d.ts", "/toolnexus.js"],
      "Deno fetched the declarations the header names",
    );
  });

  await check("deno check fails a script that misuses them, naming the package's own types", async () => {
    const out = await run(["check", "--no-lock", allow, "wrong.ts"]);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /TS2322 \[ERROR\]: Type '"cohere"' is not assignable to type 'Style'/);
    assert.match(out.stderr, /Type 'Client' is not assignable to type 'number'/);
    assert.match(out.stderr, /Type '"finished"' is not assignable to type/);
    assert.match(out.stderr, new RegExp(`http://${host.replace(/\./g, "\\.")}/index\\.d\\.ts`));
  });

  await check("deno run runs the well-typed script (import access only to the loopback host)", async () => {
    const out = await run(["run", "--no-lock", allow, "right.ts"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "pending done Sunny in Chennai function");
  });
}

/** examples/deno/from-url.ts as a user runs it: its CDN URL mapped onto dist/ on loopback by an import map. */
async function fromUrlExample() {
  const CDN_URL = "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";
  const example = join(root, "examples/deno/from-url.ts");
  const { host, requests } = await serveDist();
  const importMap = join(tmp, "cdn-map.json");
  writeFileSync(importMap, JSON.stringify({ imports: { [CDN_URL]: `http://${host}/toolnexus.js` } }));
  const runExample = (allow, denoDir) =>
    run(["run", "--no-lock", ...allow, `--import-map=${importMap}`, example], { cwd: root, denoDir });

  await check("examples/deno/from-url.ts imports exactly the CDN URL mapped here", async () => {
    assert.ok(readFileSync(example, "utf8").includes(`from "${CDN_URL}"`));
  });

  await check("deno run runs examples/deno/from-url.ts from the URL and prints the Answer", async () => {
    requests.length = 0;
    const out = await runExample([`--allow-import=${host}`], join(tmp, "deno-allowed"));
    assert.equal(out.code, 0, out.stderr);
    assert.doesNotMatch(out.stderr, /error/);
    assert.deepEqual(JSON.parse(out.stdout), { id: "sus-1", ok: true, data: { output: "Chennai" } });
    assert.deepEqual(requests, ["/toolnexus.js"]);
  });

  await check("the import is refused when the loopback server is not on the allow-list", async () => {
    requests.length = 0;
    const out = await runExample([], join(tmp, "deno-refused"));
    assert.notEqual(out.code, 0);
    assert.equal(out.stdout, "");
    assert.ok(out.stderr.includes(`Requires import access to "${host}"`), out.stderr);
    assert.deepEqual(requests, []);
  });
}

async function jsr() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(join(root, "jsr.json"), "utf8"));

  await check("jsr.json agrees with package.json (version, license) and exports the bundle", async () => {
    assert.deepEqual(
      [manifest.version, manifest.license, manifest.exports],
      [pkg.version, pkg.license, "./dist/toolnexus.js"],
    );
  });

  await check(
    "deno publish --dry-run accepts jsr.json with no network and no warnings, shipping only what it lists",
    async () => {
      const out = await run(["publish", "--dry-run", "--allow-dirty"], { cwd: root });
      assert.equal(out.code, 0, out.stderr);
      const text = out.stdout + out.stderr;
      assert.match(text, /Success Dry run complete/);
      assert.doesNotMatch(text, /warning/i);
      const files = [...text.matchAll(/file:\/\/\S*?\/((?:dist\/)?[\w.-]+) \(/g)].map((m) => m[1]).sort();
      assert.deepEqual(files, [
        "CHANGELOG.md",
        "LICENSE",
        "README.md",
        "dist/index.d.ts",
        "dist/toolnexus.js",
        "jsr.json",
      ]);
    },
  );
}

try {
  await urlImportTypes();
  await fromUrlExample();
  await jsr();
} catch (error) {
  fail("setup", error);
} finally {
  await cleanup();
}
finish();
