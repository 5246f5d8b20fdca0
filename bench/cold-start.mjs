// 5. Edge cold start: the demo Worker (wrangler.toml → examples/worker/demo.ts) started in a fresh
// workerd through wrangler's unstable_startWorker (loopback only), alternating with a one-line Worker
// on the same config (same bindings) as the baseline; plus the script wrangler would upload, against
// Cloudflare's Worker size and startup limits.
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { root, tempFile } from "./ours.mjs";
import { fmtBytes, fmtMs, fmtSpread, isMeasured, ratio, stats, table } from "./lib.mjs";

const NO_NETWORK_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  CI: "true",
};

// Cloudflare Workers limits (developers.cloudflare.com/workers/platform/limits/): Worker size 3 MB
// (Free) / 10 MB (Paid) after gzip; startup (parse + global scope) 1 s. A 2026 docs change replaces
// the compressed limits with 64 MiB uncompressed on every plan (cloudflare-docs PR #31002).
const LIMITS = {
  freeGzip: 3 * 1024 * 1024,
  paidGzip: 10 * 1024 * 1024,
  uncompressed: 64 * 1024 * 1024,
  startupMs: 1000,
};

const DEMO = "demo Worker";
const BASE = "one-line Worker, same bindings";
const dev = {
  server: { hostname: "127.0.0.1", port: 0 },
  inspector: false,
  persist: false,
  watch: false,
  logLevel: "none",
};

export async function bench({ smoke }) {
  // keep wrangler and miniflare off the internet (telemetry, request.cf download, update check)
  Object.assign(process.env, { ...NO_NETWORK_ENV, ...pick(process.env, Object.keys(NO_NETWORK_ENV)) });
  const { unstable_startWorker } = await import("wrangler");
  const baseline = oneLineWorker();
  const participants = [
    { name: DEMO, input: { config: join(root, "wrangler.toml"), sendMetrics: false, dev } },
    { name: BASE, input: { config: baseline.config, sendMetrics: false, dev } },
  ];
  // one unrecorded round first warms what is not part of a Worker's cold start (wrangler's own modules, the OS file cache)
  const plan = smoke ? { warmup: 0, rounds: 1 } : { warmup: 1, rounds: 5 };
  let measured;
  try {
    measured = await coldStarts(unstable_startWorker, participants, plan);
  } finally {
    baseline.dispose();
  }
  const { results, statuses } = measured;
  const script = await uploadSize();
  const demo = results[DEMO];
  const base = results[BASE];
  const status = statuses[DEMO];
  const checks = [
    {
      name: "cold-start: demo Worker answers",
      ok: isMeasured(demo.first.median) && status >= 200 && status < 400,
      detail: `status ${status}`,
    },
    { name: "cold-start: upload size measured", ok: !script.error && script.gzip > 0, detail: script.error },
  ];
  const goals = [
    {
      goal: "Worker script within Cloudflare's size limit",
      measured: script.error
        ? "not measured"
        : `${fmtBytes(script.gzip)} gzip = ${pct(script.gzip, LIMITS.freeGzip)} of the Free plan's 3 MB`,
      met: !script.error && script.gzip <= LIMITS.freeGzip && script.raw <= LIMITS.uncompressed,
    },
    {
      goal: "Demo Worker cold start (info)",
      measured: `${fmtMs(demo.first.median)} to first response, ${ratio(demo.first.median, base.first.median)} a one-line Worker's on the same bindings`,
      met: undefined,
    },
  ];
  const text = render(results, statuses, script, plan);
  return {
    id: "cold-start",
    title: "5. Edge cold start (workerd, local)",
    text,
    results: { ...results, script },
    checks,
    goals,
  };
}

/** Starts each Worker `warmup + rounds` times, alternating; stats of the recorded rounds per Worker. */
async function coldStarts(startWorker, participants, { warmup, rounds }) {
  const samples = Object.fromEntries(
    participants.map((p) => [p.name, { ready: [], first: [], request: [], warm: [] }]),
  );
  const statuses = {};
  for (let round = 0; round < warmup + rounds; round++) {
    for (let k = 0; k < participants.length; k++) {
      const p = participants[(round + k) % participants.length];
      const s = await startOnce(startWorker, p.input);
      statuses[p.name] = s.status;
      if (round >= warmup) for (const key of Object.keys(samples[p.name])) samples[p.name][key].push(s[key]);
    }
  }
  const results = Object.fromEntries(
    Object.entries(samples).map(([n, s]) => [n, Object.fromEntries(Object.entries(s).map(([k, v]) => [k, stats(v)]))]),
  );
  return { results, statuses };
}

function render(results, statuses, script, { warmup, rounds }) {
  const demo = results[DEMO];
  const base = results[BASE];
  const rows = [DEMO, BASE].map((name) => {
    const r = results[name];
    return [
      name,
      fmtSpread(r.ready),
      fmtSpread(r.request),
      `**${fmtSpread(r.first)}**`,
      fmtSpread(r.warm),
      `HTTP ${statuses[name]}`,
    ];
  });
  return [
    `${rounds} fresh workerd processes per Worker after ${warmup} unrecorded round, alternating (wrangler \`unstable_startWorker\`, 127.0.0.1, no persistence); request: \`GET /\`.`,
    "",
    table(
      ["Worker", "start → ready", "first request", "start → first response", "next request (warm)", "status"],
      rows,
    ),
    "",
    `Demo over the one-line Worker, start → first response: **${ratio(demo.first.median, base.first.median)}**. The first request is where workerd loads the script ` +
      `(parse + global scope) and runs it once; the demo's extra over the one-line Worker there, ${fmtMs(demo.request.median - base.request.median)}, bounds what its script costs at a cold start ` +
      `(Cloudflare's startup limit for parse + global scope is ${fmtMs(LIMITS.startupMs)}). The rest is workerd and wrangler's dev proxy starting, the same for any Worker.`,
    "",
    script.error
      ? `Upload size: not measured (${script.error}).`
      : table(
          ["Script wrangler would upload (`wrangler deploy --dry-run`)", "Size", "Cloudflare limit", "Share of limit"],
          [
            [
              "raw (all modules)",
              fmtBytes(script.raw),
              `${fmtBytes(LIMITS.uncompressed)} uncompressed (2026 docs)`,
              pct(script.raw, LIMITS.uncompressed),
            ],
            [
              "gzip -9",
              fmtBytes(script.gzip),
              `${fmtBytes(LIMITS.freeGzip)} Free / ${fmtBytes(LIMITS.paidGzip)} Paid after gzip`,
              `${pct(script.gzip, LIMITS.freeGzip)} / ${pct(script.gzip, LIMITS.paidGzip)}`,
            ],
            ["wrangler's own report", script.reported ?? "–", "", ""],
          ],
        ),
  ].join("\n");
}

/**
 * The baseline: wrangler.toml as it is (same bindings, compatibility date and flags) with `main` pointing
 * at a one-line Worker that also exports an empty class for every Durable Object class the config names.
 */
function oneLineWorker() {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const classes = [...toml.matchAll(/^\s*class_name\s*=\s*"([A-Za-z_$][\w$]*)"/gm)].map((m) => m[1]);
  const script = [
    `export default { fetch: () => new Response("ok") };`,
    ...classes.map((c) => `export class ${c} { fetch() { return new Response("ok"); } }`),
  ].join("\n");
  const dir = tempFile("one-line-worker.mjs", `${script}\n`);
  const config = join(dir.dir, "wrangler.toml");
  writeFileSync(config, toml.replace(/^main\s*=.*$/m, `main = "one-line-worker.mjs"`));
  return { config, dispose: dir.dispose };
}

async function startOnce(startWorker, input) {
  const t0 = performance.now();
  let worker;
  try {
    return await withTimeout(120_000, "the Worker did not start and answer within 120 s", async () => {
      worker = await startWorker(input);
      await worker.ready;
      const tReady = performance.now();
      const res = await worker.fetch("http://127.0.0.1/");
      await res.arrayBuffer();
      const tFirst = performance.now();
      const again = await worker.fetch("http://127.0.0.1/");
      await again.arrayBuffer();
      const tWarm = performance.now();
      return {
        ready: tReady - t0,
        request: tFirst - tReady,
        first: tFirst - t0,
        warm: tWarm - tFirst,
        status: res.status,
      };
    });
  } finally {
    await worker?.dispose();
  }
}

async function withTimeout(ms, message, fn) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([fn(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// What `wrangler deploy` would upload for wrangler.toml, built offline with --dry-run.
async function uploadSize() {
  const out = tempFile("README", "");
  try {
    const { stdout, stderr } = await promisify(execFile)(
      join(root, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--outdir", out.dir],
      {
        cwd: root,
        env: { ...process.env, ...NO_NETWORK_ENV },
        timeout: 120_000,
      },
    );
    const files = readdirSync(out.dir).filter((f) => /\.(m?js|cjs|wasm)$/.test(f));
    if (files.length === 0) return { error: "wrangler wrote no module" };
    const code = Buffer.concat(files.map((f) => readFileSync(join(out.dir, f))));
    const reported = /Total Upload: ([^\n]+)/.exec(stdout + stderr)?.[1]?.trim();
    return {
      raw: files.reduce((n, f) => n + statSync(join(out.dir, f)).size, 0),
      gzip: gzipSync(code, { level: 9 }).length,
      reported,
      files,
    };
  } catch (error) {
    return { error: String(error?.message ?? error).split("\n")[0] };
  } finally {
    out.dispose();
  }
}

function pct(a, b) {
  const p = (100 * a) / b;
  return `${p < 0.01 ? p.toExponential(1) : p.toFixed(p < 1 ? 3 : 1)} %`;
}

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
}
