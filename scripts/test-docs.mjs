// The docs site as a reader meets it: `npm run docs` builds it (twoslash fails the build when a TypeScript
// block no longer compiles), the build is served on 127.0.0.1 (a free port), and Debian's Chromium
// (Playwright, no network beyond loopback) crawls it from the home page:
//   - every page reached answers 200, is not the theme's 404 page, and logs no console error, page error
//     or failed request;
//   - every internal link leads to a page that exists, and every #anchor to an element on that page;
//   - the local search box finds each guide page by a word of its title (and the API reference's modules).
// Prints `docs: N passed, N failed`.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright";
import { createChecks } from "./lib/checks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const site = join(root, "docs/.vitepress/dist");
const { check, cleanup, finish, cleanups } = createChecks("docs");

if (!existsSync(join(root, "dist/index.d.ts")))
  spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });

await check("npm run docs builds the site: every TypeScript block compiles, no dead link", async () => {
  const out = spawnSync(process.execPath, ["docs/.vitepress/build.mjs"], {
    cwd: root,
    encoding: "utf8",
    timeout: 300_000,
  });
  assert.equal(out.status, 0, `${out.stdout}\n${out.stderr}`.slice(-4000));
});

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };
TYPES[".json"] = "application/json";
TYPES[".woff2"] = "font/woff2";

/** The file a clean URL names, as VitePress's own preview serves it: /a/b → a/b.html, /a/ → a/index.html. */
function fileFor(pathname) {
  const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, "");
  const candidates = [path, `${path}.html`, join(path, "index.html")];
  return candidates.map((p) => join(site, p)).find((f) => existsSync(f) && statSync(f).isFile());
}

const server = createServer((req, res) => {
  const file = fileFor(new URL(req.url ?? "/", "http://x").pathname);
  res.statusCode = file ? 200 : 404;
  res.setHeader("content-type", TYPES[extname(file ?? ".html")] ?? "application/octet-stream");
  res.end(readFileSync(file ?? join(site, "404.html")));
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
cleanups.push(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
  ],
});
cleanups.push(() => browser.close());

/** Visits every page reachable from the home page; returns what each holds and every problem seen. */
async function crawl() {
  const pages = new Map(); // path → { ids, title, links }
  const problems = [];
  const queue = ["/"];
  const seen = new Set(queue);
  const visit = async (tab, path) => {
    const response = await tab.goto(base + path, { waitUntil: "load" });
    if (response?.status() !== 200) problems.push(`${path}: HTTP ${response?.status()}`);
    if (await tab.locator(".NotFound").count()) problems.push(`${path}: the theme's 404 page`);
    const found = await tab.evaluate(() => ({
      ids: [...document.querySelectorAll("[id]")].map((e) => e.id),
      title: document.querySelector(".vp-doc h1")?.textContent ?? "",
      links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
    }));
    pages.set(path, found);
    for (const href of found.links) {
      const url = new URL(href);
      if (url.origin !== base) continue;
      const next = url.pathname.replace(/\.html$/, "");
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  };
  const worker = async () => {
    const tab = await browser.newPage();
    tab.on("console", (m) => m.type() === "error" && problems.push(`${tab.url()} console: ${m.text()}`));
    tab.on("pageerror", (e) => problems.push(`${tab.url()} page error: ${e.message}`));
    tab.on("requestfailed", (r) => {
      if (r.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`${tab.url()} request failed: ${r.url()}`);
    });
    tab.on("response", (r) => r.status() >= 400 && problems.push(`${tab.url()} HTTP ${r.status()}: ${r.url()}`));
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) await visit(tab, path);
    await tab.close();
  };
  // a few tabs at once; a tab whose queue runs dry while another still finds links is restarted below
  while (queue.length) await Promise.all([worker(), worker(), worker()]);
  return { pages, problems };
}

const started = Date.now();
const { pages, problems } = await crawl();
console.log(`  crawled ${pages.size} pages in ${Date.now() - started} ms`);

await check("every page loads with no console error, page error or failed request", async () => {
  assert.ok(pages.size > 20, `only ${pages.size} pages reached from the home page`);
  for (const need of ["/guide/quickstart", "/guide/storage", "/guide/mcp", "/guide/reliability", "/api/"])
    assert.ok(pages.has(need), `${need} is not linked from the site`);
  assert.deepEqual(problems, []);
});

await check("no link is broken: every internal link names a page, every #anchor an element on it", async () => {
  const broken = [];
  for (const [from, { links }] of pages) {
    for (const href of links) {
      const url = new URL(href);
      if (url.origin !== base) continue;
      const target = pages.get(url.pathname.replace(/\.html$/, ""));
      const id = decodeURIComponent(url.hash.slice(1));
      if (!target) broken.push(`${from} → ${url.pathname}`);
      else if (id && !target.ids.includes(id)) broken.push(`${from} → ${url.pathname}#${id}`);
    }
  }
  assert.deepEqual(broken, []);
});

// each guide page by the first word of its title that is not a common one, and the API modules' pages
const searched = [...pages].filter(
  ([path, { title }]) => title && /^\/(guide\/|api\/toolnexus\/(testing|mcp)\/$)/.test(path),
);
const tab = await browser.newPage();
await tab.goto(`${base}/`);
for (const [path, { title }] of searched) {
  const word = title.replace(/[^\w\s/-]/g, " ").trim();
  await check(`search finds ${path} by "${word}"`, async () => {
    await tab.locator(".VPNavBarSearch button").first().click();
    const box = tab.locator(".VPLocalSearchBox input");
    await box.fill(word);
    await tab.locator(".VPLocalSearchBox .result").first().waitFor({ timeout: 10_000 });
    const hrefs = await tab.locator(".VPLocalSearchBox a.result").evaluateAll((as) => as.map((a) => a.href));
    await tab.keyboard.press("Escape");
    assert.ok(
      hrefs.some((h) => new URL(h).pathname.replace(/\.html$/, "") === path),
      `no result for ${path}: ${hrefs.slice(0, 5).join(", ")}`,
    );
  });
}

await cleanup();
finish();
