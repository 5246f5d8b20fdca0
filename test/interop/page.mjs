// examples/use-chat run as a user runs it: chat.tsx (a real useChat page, bundled by esbuild with this
// folder's React and AI SDK) in Chromium, against server.ts (built over dist/) on 127.0.0.1 — a prompt
// streams, an approval approved and one denied, a question answered, a reload mid-stream resumed.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { chromium } from "playwright";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const modules = join(here, "node_modules");

async function bundles() {
  const page = await esbuild.build({
    entryPoints: [join(root, "examples/use-chat/chat.tsx")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    jsx: "automatic",
    alias: { react: join(modules, "react"), "react-dom": join(modules, "react-dom") },
    nodePaths: [modules],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  const server = await esbuild.build({
    entryPoints: [join(root, "examples/use-chat/server.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    alias: { "toolnexus/ai-sdk": join(root, "dist/ai-sdk.js"), toolnexus: join(root, "dist/index.js") },
    logLevel: "error",
  });
  const file = join(mkdtempSync(join(tmpdir(), "toolnexus-use-chat-")), "server.mjs");
  writeFileSync(file, server.outputFiles[0].text);
  const { handleChat } = await import(pathToFileURL(file).href);
  return { script: page.outputFiles[0].text, handleChat };
}

const HTML =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/chat.js"></script></body></html>';

async function serve({ script, handleChat }) {
  const server = createServer(async (req, res) => {
    if (req.url === "/") return res.writeHead(200, { "content-type": "text/html" }).end(HTML);
    if (req.url === "/chat.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await handleChat(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

export async function pageChecks({ check }) {
  let server;
  let browser;
  try {
    server = await serve(await bundles());
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
    });
  } catch (error) {
    await check("use-chat example: the page and its server start", () => {
      throw error;
    });
    await server?.close();
    return;
  }
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.setDefaultTimeout(15_000);
  const say = async (text) => {
    await page.fill("input", text);
    await page.click("button[type=submit]");
  };
  const reply = (text) => page.locator("p.assistant", { hasText: text });
  try {
    await page.goto(server.url);
    await check("use-chat example in Chromium: a prompt streams", async () => {
      await say("hello");
      await reply("You said: hello").waitFor();
    });
    await check("use-chat example in Chromium: approved, the tool runs once", async () => {
      await say("deploy it");
      await page.click("button:has-text('Approve')");
      await reply("Done: deployed").waitFor();
      assert.equal(await reply("Done: deployed").count(), 1);
    });
    await check("use-chat example in Chromium: denied, the tool never runs", async () => {
      await say("deploy again");
      await page.click("button:has-text('Deny')");
      await reply("Done: declined").waitFor();
      assert.equal(await reply("Done: deployed").count(), 1); // only the approved one's
      await page.locator("p.tool", { hasText: "deploy: output-denied" }).waitFor();
    });
    await check("use-chat example in Chromium: a question answered with addToolOutput", async () => {
      await say("which city?");
      await page.click("button:has-text('Lima')");
      await reply("Done: city Lima").waitFor();
    });
    await check("use-chat example in Chromium: a reload mid-stream resumes, no word twice", async () => {
      await say("check the stock");
      await page.locator("p.tool", { hasText: "check_stock: input-available" }).waitFor();
      await page.reload();
      await reply("Done: 42 in stock").waitFor();
      const texts = await page.locator("p.assistant").allTextContents();
      assert.deepEqual(texts, ["Done: 42 in stock"]);
      assert.deepEqual(errors, []);
    });
  } finally {
    await browser.close();
    await server.close();
  }
}
