// The demo's scenarios against the Worker in workerd, as `npm start` runs it (scripted model, Durable Object).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startDemo } from "./launcher.mjs";
import { playScenarios } from "./play.mjs";

playScenarios("workerd", (ctx) => {
  // an empty env file: a developer's .dev.vars (a real endpoint and key) must not leak into the test
  const empty = join(ctx.tmp, "empty.env");
  writeFileSync(empty, "");
  return startDemo(ctx, "scripted", ["--env-file", empty]);
});
