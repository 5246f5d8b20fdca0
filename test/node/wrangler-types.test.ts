// RunStoreObject as a Worker exports it, checked against the types `wrangler types` generates for that
// Worker: the generated Env types its binding `DurableObjectNamespace<RunStoreObject>`, which requires a
// Durable Object class's brand, and the main module's exports must be entrypoints. A strict tsc
// (skipLibCheck off, so the generated file is checked too) over the shipped declarations must be clean.
// Offline: wrangler writes the runtime types from its bundled workerd. Needs `npm run build` first.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const app = mkdtempSync(join(tmpdir(), "toolnexus-wrangler-types-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

const files: Record<string, string> = {
  "wrangler.toml": `name = "app"
main = "src/index.ts"
compatibility_date = "2026-04-20"
[[durable_objects.bindings]]
name = "RUN_STORE"
class_name = "RunStoreObject"
[[migrations]]
tag = "v1"
new_sqlite_classes = ["RunStoreObject"]
`,
  "src/index.ts": `import { durableObjectStorage } from "toolnexus";
export { RunStoreObject } from "toolnexus";
export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const storage = durableObjectStorage({ namespace: env.RUN_STORE });
    await storage.set("k", "v");
    return new Response((await storage.get("k")) ?? "");
  },
} satisfies ExportedHandler<Env>;
`,
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022"],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      paths: { toolnexus: [join(root, "dist/index.d.ts")] },
    },
    include: ["src", "worker-configuration.d.ts"],
  }),
};

const run = (cmd: string, args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile(
      cmd,
      args,
      { cwd: app, timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}` }),
    ),
  );

it("a Worker exporting RunStoreObject type-checks strictly against the types wrangler generates for it", async () => {
  mkdirSync(join(app, "src"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(app, name), text);
  const generated = await run(join(root, "node_modules/.bin/wrangler"), ["types"]);
  expect(generated.code, generated.out).toBe(0);
  const checked = await run(join(root, "node_modules/.bin/tsc"), ["-p", "."]);
  expect(checked.out).toBe("");
}, 180_000);
