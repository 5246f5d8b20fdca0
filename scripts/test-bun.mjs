// Bun (the `bun` npm package): the behavioural suite (test/behaviour) and the Bun-only tests (test/bun:
// examples/bun/serve.ts over Bun.serve, the npm entry's chunks) under `bun test`, against the built
// package — `toolnexus` resolves to dist/index.js through test/bun/bundle.tsconfig.json, the core that
// toolnexus/agents, /otel and /testing import, so a test loads one copy of it (Deno covers the single
// file); bun maps the suite's `vitest` imports onto bun:test itself. --no-install: Bun never fetches a package.
// Prints `Bun <version> (bun test): N passed, N failed` (skipped and todo tests count as failed).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bun = `${root}node_modules/.bin/bun`;
if (!existsSync(`${root}dist/toolnexus.js`)) spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });

// extra arguments go to `bun test` (e.g. -t "name pattern")
const args = [
  "--no-install",
  "--tsconfig-override=test/bun/bundle.tsconfig.json",
  "test",
  ...process.argv.slice(2),
  "./test/behaviour/",
  "./test/bun/",
];
const out = spawnSync(bun, args, {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, NO_COLOR: "1" },
  maxBuffer: 64 << 20,
  timeout: 300_000,
});
const text = `${out.stdout ?? ""}${out.stderr ?? ""}`;
process.stdout.write(
  text
    .split("\n")
    .filter((l) => !l.startsWith("(pass)"))
    .join("\n"),
); // failures and the summary

const count = (word) => Number(new RegExp(`^ *(\\d+) ${word}$`, "m").exec(text)?.[1] ?? 0);
const passed = count("pass");
let failed = count("fail") + count("skip") + count("todo");
if (count("skip") + count("todo")) console.log("bun: skipped/todo tests — not allowed");
if (out.status !== 0 && failed === 0) failed = 1; // a file that failed to load, a crash, a timeout
if (!/^ *\d+ pass$/m.test(text)) console.log(`bun: no summary (exit ${out.status}, ${out.error ?? out.signal ?? ""})`);
const version = spawnSync(bun, ["--version"], { encoding: "utf8" }).stdout?.trim();
console.log(`Bun ${version} (bun test): ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
