// toolnexus/mcp in a project that has not installed its optional peer @modelcontextprotocol/client: the
// subpath still loads, and connectMcp rejects with a typed error that names the package to install —
// not the runtime's bare ERR_MODULE_NOT_FOUND. The package is copied into a fresh project (a symlink
// would resolve the peer from this repository's node_modules). Needs `npm run build` first.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "toolnexus-no-peer-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const script = `
import { connectMcp } from "toolnexus/mcp";
try {
  await connectMcp({ name: "docs", url: "http://127.0.0.1:9/mcp" });
  console.log(JSON.stringify({ threw: false }));
} catch (error) {
  console.log(JSON.stringify({ threw: true, name: error.name, code: error.code, message: error.message }));
}
`;

it("connectMcp without @modelcontextprotocol/client installed says which package to install", async () => {
  const pkg = join(project, "node_modules/toolnexus");
  mkdirSync(pkg, { recursive: true });
  cpSync(join(root, "dist"), join(pkg, "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(pkg, "package.json"));
  writeFileSync(join(project, "main.mjs"), script);
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["main.mjs"], { cwd: project, timeout: 30_000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    ),
  );
  expect(JSON.parse(stdout)).toEqual({
    threw: true,
    name: "ToolnexusError",
    code: "config",
    message: expect.stringContaining("npm i @modelcontextprotocol/client"),
  });
});
