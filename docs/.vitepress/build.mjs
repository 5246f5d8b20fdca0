// `npm run docs`: the API reference from the built declarations (TypeDoc), then the site (VitePress, whose
// twoslash checks every TypeScript block against the same declarations). Needs `npm run build` first.
// The declarations are copied into docs/.types with a @module tag, so the reference names its modules
// toolnexus, toolnexus/testing and toolnexus/mcp (tsup's bundling drops a tag written in the sources).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const docs = `${root}docs/`;
if (!existsSync(`${root}dist/index.d.ts`)) {
  console.error("docs: dist/ is missing — run `npm run build` first");
  process.exit(1);
}
mkdirSync(`${docs}.types`, { recursive: true });
for (const [file, name] of [
  ["index", "toolnexus"],
  ["testing", "toolnexus/testing"],
  ["mcp", "toolnexus/mcp"],
]) {
  const text = readFileSync(`${root}dist/${file}.d.ts`, "utf8");
  writeFileSync(`${docs}.types/${file}.d.ts`, `/** @module ${name} */\n${text}`);
}
rmSync(`${docs}api`, { recursive: true, force: true });

const bin = (name) => `${root}node_modules/.bin/${name}`;
const step = (cmd, args) => {
  const out = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (out.status !== 0) process.exit(out.status ?? 1);
};
step(bin("typedoc"), ["--options", "docs/typedoc.json"]);
step(bin("vitepress"), ["build", "docs", ...process.argv.slice(2)]);
