// Registers the demo's scenarios (scenarios.mjs) as tests against one started demo: before the first, Chromium
// and the demo (`start(ctx)`, with `ctx = { tmp, cleanups }`) are started and one page opened; after the last,
// everything started is stopped, also when a test failed (then the demo's log is printed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import { launchBrowser, runCleanups } from "./launcher.mjs";
import { SCENARIOS } from "./scenarios.mjs";

/** A fresh temporary directory and the list of cleanups for one file's demo, removed after its last test. */
export function demoContext(prefix) {
  const ctx = { tmp: mkdtempSync(join(tmpdir(), prefix)), cleanups: [] };
  afterAll(async () => {
    await runCleanups(ctx.cleanups);
    rmSync(ctx.tmp, { recursive: true, force: true });
  });
  return ctx;
}

export function playScenarios(name, start) {
  const setup = demoContext("toolnexus-demo-");
  const ctx = { pageErrors: [] };
  let failed = false;
  beforeAll(async () => {
    const browser = await launchBrowser();
    setup.cleanups.push(() => browser.close());
    ctx.demo = await start(setup);
    console.log(`${ctx.demo.name}: demo started on ${ctx.demo.base}`);
    ctx.context = await browser.newContext({ viewport: { width: 980, height: 760 } });
    ctx.page = await ctx.context.newPage();
    ctx.page.on("pageerror", (e) => ctx.pageErrors.push(e.message));
    ctx.page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    if (failed) console.log(ctx.demo?.log());
    await ctx.context?.close();
    await ctx.demo?.stop();
  });
  for (const [scenario, fn] of SCENARIOS)
    it(`${name}: ${scenario}`, async ({ onTestFailed }) => {
      onTestFailed(() => {
        failed = true;
      });
      await fn(ctx);
    });
}
