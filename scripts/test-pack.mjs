// The package as npm ships it and as its npm page shows it:
//   - `npm pack` of the built package: what ships (dist/, package.json, README, CHANGELOG, LICENSE), that no
//     test, fixture, example or test source map does, and that every source map points only into src/ or
//     a dependency and embeds no sources (`sourcesContent`); the tarball's size is printed, packed and
//     unpacked (bench/RESULTS.md reports it too);
//   - the README's quickstart (examples/node/ten-lines.mjs, verbatim) run as it is from a fresh project that
//     installed the tarball, by Node 20 and Node 24; its typed twin (examples/node/ten-lines.mts, the docs'
//     quickstart) as TypeScript by Node 24, and bundled by esbuild on Node 20;
//   - every link and image in the README absolute (npm's page has no repository to resolve a relative one
//     against), those into the repository naming files that exist; repository, homepage and bugs set.
// Prints `package: N passed, N failed`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const REPO = "https://github.com/toolnexus/toolnexus";
const tmp = mkdtempSync(join(tmpdir(), "toolnexus-pack-"));
const { check, fail, cleanup, finish } = createChecks("package", { tmp });
const NODE24 = join(root, "tools/node24/node_modules/.bin/node");
const QUICKSTART = "examples/node/ten-lines.mjs";
const QUICKSTART_TS = "examples/node/ten-lines.mts";
const env = {
  ...process.env,
  NO_COLOR: "1",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};
if (!existsSync(join(root, "dist/toolnexus.js")))
  spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });

/** The entries of a .tgz: name → contents (a tar is 512-byte headers, each followed by its file). */
function untar(file) {
  const tar = gunzipSync(readFileSync(file));
  const files = new Map();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const field = (from, len) =>
      tar
        .subarray(at + from, at + from + len)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const name = (field(345, 155) ? `${field(345, 155)}/` : "") + field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    if (field(156, 1) === "0" || field(156, 1) === "")
      files.set(name.replace(/^package\//, ""), tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

async function packed() {
  const [info] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp], {
      cwd: root,
      env,
      encoding: "utf8",
    }),
  );
  const tgz = join(tmp, info.filename);
  const files = untar(tgz);
  console.log(
    `  npm pack: ${info.filename}, ${info.size.toLocaleString("en")} B packed, ${info.unpackedSize.toLocaleString("en")} B unpacked, ${info.entryCount} files`,
  );

  await check("npm pack ships dist/, package.json, README.md, CHANGELOG.md and LICENSE — nothing else", async () => {
    const names = [...files.keys()];
    for (const need of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/toolnexus.js",
    ])
      assert.ok(names.includes(need), `${need} is missing`);
    assert.deepEqual(
      names.filter((n) => !/^(dist\/[\w.-]+|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(n)),
      [],
    );
  });

  await check(
    "no test, fixture or test source map ships: every source map points only into src/ or a dependency, without embedding the sources",
    async () => {
      const names = [...files.keys()];
      assert.deepEqual(
        names.filter((n) =>
          /(^|\/)(test|tests|__tests__|fixtures?|examples|scripts|bench)\/|\.(test|spec)\.|global-setup/.test(n),
        ),
        [],
      );
      const maps = names.filter((n) => n.endsWith(".map"));
      assert.ok(maps.length > 0);
      for (const map of maps) {
        assert.ok(files.has(map.replace(/\.map$/, "")), `${map} ships without its script`);
        const sources = JSON.parse(files.get(map).toString("utf8")).sources;
        const stray = sources.filter((s) => !/^\.\.\/(src|node_modules)\//.test(s));
        assert.deepEqual(stray, [], `${map} points outside src/ and node_modules/`);
        const embedded = JSON.parse(files.get(map).toString("utf8")).sourcesContent;
        assert.ok(!embedded?.some((text) => text), `${map} embeds the sources themselves (sourcesContent)`);
      }
    },
  );
  return tgz;
}

async function quickstart(tgz) {
  const project = join(tmp, "user-project");
  mkdirSync(project);
  const install = spawnSync(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tgz],
    { cwd: project, env, encoding: "utf8" },
  );
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  writeFileSync(join(project, "quickstart.mjs"), readFileSync(join(root, QUICKSTART), "utf8"));
  writeFileSync(join(project, "quickstart.mts"), readFileSync(join(root, QUICKSTART_TS), "utf8"));
  const expected = ["pending Which city?", "done Sunny in Chennai"];
  const lines = (out) => out.stdout.trim().split("\n");

  for (const [node, binary] of [
    ["20", process.execPath],
    ["24", NODE24],
  ])
    await check(
      `the README quickstart (quickstart.mjs) runs as written on Node ${node} after npm i of the tarball`,
      async () => {
        const out = spawnSync(binary, ["quickstart.mjs"], { cwd: project, encoding: "utf8", timeout: 60_000 });
        assert.equal(out.status, 0, out.stderr);
        assert.deepEqual(lines(out), expected);
      },
    );

  await check("the docs' quickstart runs as TypeScript on Node 24 after npm i of the tarball", async () => {
    const out = spawnSync(NODE24, ["quickstart.mts"], { cwd: project, encoding: "utf8", timeout: 60_000 });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(lines(out), expected);
  });

  await check("the docs' quickstart runs on Node 20 (bundled by esbuild, toolnexus from node_modules)", async () => {
    const outfile = join(project, "quickstart-bundled.mjs");
    await esbuild.build({
      entryPoints: [join(project, "quickstart.mts")],
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      outfile,
      logLevel: "silent",
    });
    const out = spawnSync(process.execPath, [outfile], { cwd: project, encoding: "utf8", timeout: 60_000 });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(lines(out), expected);
  });
}

async function npmPage() {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

  await check(
    "the README opens with `npm i toolnexus` and the quickstart, which is examples/node/ten-lines.mjs verbatim",
    async () => {
      const firstBlocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].slice(0, 2);
      assert.deepEqual(
        firstBlocks.map((m) => m[1]),
        ["sh", "js"],
      );
      assert.equal(firstBlocks[0][2], "npm i toolnexus\n");
      assert.equal(firstBlocks[1][2], readFileSync(join(root, QUICKSTART), "utf8"));
      assert.ok(readme.indexOf(firstBlocks[0][0]) < readme.indexOf("\n## "), "before the first section");
    },
  );

  await check("every other TypeScript block of the README is an example file verbatim (CI runs them)", async () => {
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.ok(blocks.length > 0);
    const examples = ["examples/node/sqlite-storage.ts"].map((f) => readFileSync(join(root, f), "utf8"));
    assert.deepEqual(
      blocks.filter((b) => !examples.includes(b)).map((b) => b.split("\n")[0]),
      [],
      "a README snippet that is not an example file",
    );
  });

  await check(
    "every link and image in the README is absolute; those into the repository name files that exist",
    async () => {
      const urls = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)|<img[^>]+src="([^"]+)"|^\[[^\]]+\]:\s*(\S+)/gm)].map(
        (m) => m[1] ?? m[2] ?? m[3],
      );
      assert.ok(urls.length > 5);
      assert.deepEqual(
        urls.filter((u) => !/^https:\/\//.test(u)),
        [],
        "relative links break on the npm page",
      );
      const own = new RegExp(
        `^(?:${REPO}/(?:blob|tree)/main/|https://raw\\.githubusercontent\\.com/toolnexus/toolnexus/main/)([^#?]+)`,
      );
      const missing = urls.map((u) => own.exec(u)?.[1]).filter((path) => path && !existsSync(join(root, path)));
      assert.deepEqual(missing, []);
    },
  );

  await check("package.json names the repository, homepage and issue tracker", async () => {
    assert.deepEqual(pkg.repository, { type: "git", url: `git+${REPO}.git` });
    assert.equal(pkg.homepage, `${REPO}#readme`);
    assert.deepEqual(pkg.bugs, { url: `${REPO}/issues` });
  });
}

try {
  const tgz = await packed();
  await quickstart(tgz);
  await npmPage();
} catch (error) {
  fail("setup", error);
} finally {
  await cleanup();
}
finish();
