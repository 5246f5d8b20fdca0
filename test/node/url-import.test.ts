// Deno imports the single-file bundle by URL (examples/deno/from-url.ts). The CDN URL is mapped onto a
// loopback server over dist/ with a temporary import map, and --allow-import names only that server,
// so nothing but 127.0.0.1 can be fetched. Needs `npm run build` first.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bundle = join(root, "dist/toolnexus.js");
const example = join(root, "examples/deno/from-url.ts");
const deno = join(root, "node_modules/.bin/deno");
const CDN_URL = "https://cdn.jsdelivr.net/npm/toolnexus/dist/toolnexus.js";

let server: Server;
let port: number;
let tmp: string;
let importMap: string;
const requests: string[] = [];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function runDeno(args: string[], denoDir: string): Promise<Outcome> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: tmp,
    NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1",
    DENO_NO_PROMPT: "1",
    DENO_DIR: denoDir,
  };
  return new Promise((resolve) => {
    execFile(
      deno,
      ["run", "--no-lock", ...args, `--import-map=${importMap}`, example],
      { cwd: root, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error("dist/toolnexus.js is missing — run `npm run build` before these tests");
  const body = await readFile(bundle);
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url !== "/toolnexus.js") return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": "text/javascript" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  tmp = await mkdtemp(join(tmpdir(), "toolnexus-url-import-"));
  importMap = join(tmp, "import-map.json");
  await writeFile(importMap, JSON.stringify({ imports: { [CDN_URL]: `http://127.0.0.1:${port}/toolnexus.js` } }));
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("Deno imports the bundle by URL", () => {
  it("the example imports exactly the CDN URL the test maps", async () => {
    expect(await readFile(example, "utf8")).toContain(`from "${CDN_URL}"`);
  });

  it("runs examples/deno/from-url.ts and prints the Answer", async () => {
    requests.length = 0;
    const out = await runDeno([`--allow-import=127.0.0.1:${port}`], join(tmp, "deno-allowed"));
    expect(out.stderr).not.toContain("error");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ id: "sus-1", ok: true, data: { output: "Chennai" } });
    expect(requests).toEqual(["/toolnexus.js"]);
  }, 60_000);

  it("refuses the import when the loopback server is not on the allow-list", async () => {
    requests.length = 0;
    const out = await runDeno([], join(tmp, "deno-refused"));
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain(`Requires import access to "127.0.0.1:${port}"`);
    expect(requests).toEqual([]);
  }, 60_000);
});
