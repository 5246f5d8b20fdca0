// The published package as a user meets it: what `npm pack` ships, what package.json promises, that
// the URL bundle stands alone, and that scripts/check-dist.mjs (npm run check:package) is strict but
// not fooled by minified dependencies. Needs `npm run build` first.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = join(root, "dist");
let tmp: string;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[]): Promise<Outcome> {
  const env = { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false", npm_config_fund: "false" };
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: root, env, timeout: 60_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      let code = 0;
      if (error) code = typeof error.code === "number" ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}
const checkDist = (dir: string) => run(process.execPath, ["scripts/check-dist.mjs", dir]);

async function writeDist(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

/** Every string leaf of an exports map, and every key on the way to it. */
function walk(value: unknown, keys: string[] = [], targets: string[] = []): { keys: string[]; targets: string[] } {
  if (typeof value === "string") targets.push(value);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) keys.push(k), walk(v, keys, targets);
  }
  return { keys, targets };
}

beforeAll(async () => {
  for (const f of ["index.js", "index.d.ts", "toolnexus.js"]) {
    if (!existsSync(join(dist, f))) throw new Error(`dist/${f} is missing — run \`npm run build\` before these tests`);
  }
  tmp = await mkdtemp(join(tmpdir(), "toolnexus-package-"));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("npm pack", () => {
  let files: string[] = [];
  beforeAll(async () => {
    const out = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"]);
    expect(out.code).toBe(0);
    files = (JSON.parse(out.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  }, 60_000);

  it("ships the ESM entry, its types and the single-file bundle", () => {
    expect(files).toEqual(
      expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts", "dist/toolnexus.js"]),
    );
  });

  it("ships nothing but dist/ and the package's documents", () => {
    const stray = files.filter((f) => !/^(dist\/[^/]+|package\.json|README\.md|CHANGELOG\.md|LICENSE(\.md)?)$/.test(f));
    expect(stray).toEqual([]);
    expect(files.filter((f) => /^(src|test|scripts|examples|bench)\//.test(f))).toEqual([]);
  });

  it("ships every file package.json points at", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    const { targets } = walk(pkg.exports);
    for (const target of [...targets, pkg.types, pkg.module].filter(Boolean)) {
      expect(files).toContain(target.replace(/^\.\//, ""));
    }
  });
});

describe("package.json", () => {
  it("is ESM only, side-effect free, one exports map with types first", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    expect(pkg.type).toBe("module");
    expect(pkg.sideEffects).toBe(false);
    expect(pkg).not.toHaveProperty("main");
    expect(walk(pkg.exports).keys).not.toContain("require");
    for (const path of [".", "./testing", "./toolnexus.js", "./storage"]) {
      expect(Object.keys(pkg.exports[path])[0]).toBe("types");
    }
    expect(pkg.exports["./toolnexus.js"].default).toBe("./dist/toolnexus.js");
  });
});

describe("dist/testing.js (toolnexus/testing)", () => {
  const specifiersOf = (text: string) =>
    [...text.matchAll(/\b(?:from|import)\s*\(?\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);

  it("reaches the core only through ./index.js, the file `toolnexus` resolves to", async () => {
    const specifiers = specifiersOf(await readFile(join(dist, "testing.js"), "utf8"));
    expect([...new Set(specifiers)]).toEqual(["./index.js"]); // one import per module that uses the core
  });

  it("is never loaded by the core: no other file imports it or holds its code", async () => {
    const { readdir } = await import("node:fs/promises");
    const core = (await readdir(dist)).filter((f) => f.endsWith(".js") && f !== "testing.js");
    expect(core.length).toBeGreaterThan(3);
    for (const file of core) {
      const text = await readFile(join(dist, file), "utf8");
      expect({
        file,
        imports: specifiersOf(text).filter((s) => s!.includes("testing")),
        code: text.includes("storage contract:"),
      }).toEqual({ file, imports: [], code: false });
    }
  });
});

describe("dist/toolnexus.js", () => {
  it("has no import of anything: it is self-contained", async () => {
    const text = await readFile(join(dist, "toolnexus.js"), "utf8");
    const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
    expect(specifiers).toEqual([]);
  });

  it("runs in plain Node from a folder with no node_modules anywhere above it", async () => {
    const alone = join(tmp, "alone");
    await mkdir(alone, { recursive: true });
    await copyFile(join(dist, "toolnexus.js"), join(alone, "toolnexus.js"));
    const url = pathToFileURL(join(alone, "toolnexus.js")).href;
    const script = `const m = await import(${JSON.stringify(url)}); console.log(JSON.stringify(m.answerOutput("sus-1", "Chennai")));`;
    const out = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(out.stderr).toBe("");
    expect(JSON.parse(out.stdout)).toEqual({ id: "sus-1", ok: true, data: { output: "Chennai" } });
  }, 30_000);
});

describe("scripts/check-dist.mjs", () => {
  it("passes the real dist/", async () => {
    const out = await checkDist("dist");
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  }, 30_000);

  it("passes every export of valibot, @valibot/to-json-schema and ofetch, bundled and minified", async () => {
    const entry = 'export * from "valibot"; export * from "@valibot/to-json-schema"; export * from "ofetch";';
    const result = await build({
      stdin: { contents: entry, resolveDir: root, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      target: "es2022",
      write: false,
      treeShaking: false,
    });
    const text = result.outputFiles[0]!.text;
    expect(text.length).toBeGreaterThan(50_000); // really the whole of them
    const dir = await writeDist("deps", { "index.js": text, "toolnexus.js": text, "index.d.ts": "export {};" });
    const out = await checkDist(dir);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  }, 30_000);

  it("flags Node-only code however it is spelled, and ignores lookalikes", async () => {
    const bad = [
      'import { readFile } from "node:fs";',
      'import left from "left-pad";',
      "export const a = process.env.KEY;",
      "export const b = globalThis.process ? 1 : 2;",
      'export const c = Buffer.from("x");',
      'export const d = typeof require < "u" ? require : void 0;',
      "global.x = 1;",
      'new Function("return 1");',
      "setImmediate(() => {});",
      'export const e = await import("node:crypto");',
    ];
    const fine = [
      "export const f = { process: 1, requirement: 2 }.process;",
      'export const g = "process.env.X, require(\\"y\\"), Buffer.from";',
      'export function h(require) { return require("local"); }',
      'export const i = typeof process < "u" && typeof Buffer < "u";',
      'export const j = typeof global < "u" ? global : globalThis;',
    ];
    const dir = await writeDist("bad", {
      "index.js": [...bad, ...fine].join("\n"),
      "toolnexus.js": 'import "valibot";',
      "index.d.ts": '/// <reference types="node" />\nexport declare function f(b: Buffer, kv: KVNamespace): void;',
    });
    const out = await checkDist(dir);
    expect(out.code).toBe(1);
    const lines = (file: string) =>
      out.stderr
        .split("\n")
        .filter((l) => l.includes(`${file}:`))
        .map((l) => Number(l.split(":")[1]));
    expect(lines("/index.js")).toEqual(bad.map((_, i) => i + 1));
    expect(out.stderr).toContain('toolnexus.js:1:8: contains a bare import "valibot"');
    expect(out.stderr).toContain('/// <reference types="node" />');
    expect(out.stderr).toContain("the type Buffer, which needs @types/node");
    expect(out.stderr).toContain("the type KVNamespace, which needs @cloudflare/workers-types");
  }, 30_000);

  it("says to build first when dist/ is empty", async () => {
    const out = await checkDist(await writeDist("empty", {}));
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("run `npm run build` first");
  }, 30_000);
});
