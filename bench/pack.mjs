// 6. The package as npm ships it: `npm pack --dry-run` of the freshly built package — the tarball a user
// downloads and what it unpacks to, by kind of file. (What ships is checked by scripts/test-pack.mjs.)
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { root } from "./ours.mjs";
import { fmtBytes, table } from "./lib.mjs";

const KINDS = [
  ["JavaScript (dist/*.js)", (p) => p.endsWith(".js")],
  ["source maps (dist/*.map)", (p) => p.endsWith(".map")],
  ["declarations (dist/*.d.ts)", (p) => p.endsWith(".d.ts")],
  ["documents and package.json", () => true],
];

export async function bench({ smoke }) {
  // the full run measures the working tree; the smoke pass (npm test) uses the dist/ it just built
  if (!smoke || !existsSync(join(root, "dist/toolnexus.js")))
    execFileSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "ignore" });
  const env = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" };
  const [info] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, env, encoding: "utf8" }),
  );
  const byKind = KINDS.map(([name]) => ({ name, files: 0, bytes: 0 }));
  for (const file of info.files) {
    const i = KINDS.findIndex(([, test]) => test(file.path));
    byKind[i].files++;
    byKind[i].bytes += file.size;
  }
  const rows = [
    ["**tarball (`npm pack`, gzip)**", "", `**${fmtBytes(info.size)}**`],
    ["unpacked", String(info.entryCount), fmtBytes(info.unpackedSize)],
    ...byKind.map((k) => [`— ${k.name}`, String(k.files), fmtBytes(k.bytes)]),
  ];
  const text = [`\`${info.filename}\`, built from the working tree:`, "", table(["", "Files", "Size"], rows)].join(
    "\n",
  );
  const checks = [{ name: "pack: npm pack reports the tarball's size", ok: info.size > 0 && info.entryCount > 0 }];
  return {
    id: "pack",
    title: "6. The npm package",
    text,
    results: { size: info.size, unpackedSize: info.unpackedSize, files: info.entryCount },
    checks,
  };
}
