// The demo's scenarios against the same page and endpoint under Deno.serve (Deno KV).
import { startDeno } from "./launcher.mjs";
import { playScenarios } from "./play.mjs";

playScenarios("Deno.serve", (ctx) => startDeno(ctx));
