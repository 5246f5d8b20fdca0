// `node --import ./bench/next/register.mjs bench/run.mjs …`: the benchmarks with the peers installed in
// bench/next/ (their newest releases) in place of the ones pinned in the project's package.json.
import { register } from "node:module";
import { fileURLToPath } from "node:url";

register("./hooks.mjs", import.meta.url);
process.env.TOOLNEXUS_BENCH_PEERS = fileURLToPath(new URL(".", import.meta.url)); // where versions() and size.mjs look
