// Runs in Node before each project: serves dist/ on 127.0.0.1 (random port, CORS open) so tests can
// import the single-file bundle by URL, and hands its URL to the tests with provide()/inject().
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    distBase: string;
  }
}

const types: Record<string, string> = { ".js": "text/javascript", ".map": "application/json", ".ts": "text/plain" };

export default async function setup(project: TestProject) {
  const root = new URL("../dist/", import.meta.url).pathname;
  const server = createServer(async (req, res) => {
    res.setHeader("access-control-allow-origin", "*");
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    try {
      const body = await readFile(join(root, path));
      res.setHeader("content-type", types[extname(path)] ?? "application/octet-stream");
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("distBase", `http://127.0.0.1:${port}/`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
