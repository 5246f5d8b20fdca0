#!/usr/bin/env bash
# `npm test`: every test in every runtime — vitest (Node 20, Chromium, workerd; the Node project again on
# Node 24; the React hook's server render again on React 18; the MCP checks against their servers; the `npm start` demo in Chromium), Deno, then each scripts/test-*.mjs (Bun, the Edge Runtime, `wrangler dev`, the examples, the
# package, the benchmarks' smoke pass) — then one line per runtime and the closing line
# `total: N passed, N failed`; exits non-zero on any failure. Installs tools/node24 and bench/next first
# when they are missing (scripts/tools-install.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
out=.ci-out
rm -rf "$out" && mkdir -p "$out"
NODE24=tools/node24/node_modules/.bin/node
counts=(--reporter=default --reporter=./scripts/lib/vitest-counts.mjs)

step() { local s=$SECONDS rc=0; "$@" || rc=$?; echo "[test] '$*' took $((SECONDS - s))s (exit $rc)" >&2; return $rc; }

rc=0
step bash scripts/tools-install.sh || rc=1
step npm run -s build >"$out/build.txt" 2>&1 || { cat "$out/build.txt"; rc=1; }
step env VITEST_COUNTS="$out/vitest.json" npx vitest run "${counts[@]}" || rc=1
step env VITEST_COUNTS="$out/vitest-node24.json" "$NODE24" node_modules/vitest/vitest.mjs run --project node "${counts[@]}" || rc=1
step env VITEST_COUNTS="$out/vitest-react18.json" npx vitest run --config test/react18/vitest.config.ts "${counts[@]}" || rc=1
step env VITEST_COUNTS="$out/vitest-mcp.json" npx vitest run --config test/mcp/vitest.config.mjs "${counts[@]}" || rc=1
step env VITEST_COUNTS="$out/vitest-demo.json" npx vitest run --config test/demo/vitest.config.mjs "${counts[@]}" || rc=1
step bash scripts/deno-test.sh 2>&1 | tee "$out/deno.txt" || rc=1
for s in scripts/test-*.mjs; do
  [ -e "$s" ] || continue
  step node "$s" 2>&1 | tee "$out/$(basename "$s" .mjs).txt" || rc=1
done

node scripts/tally.mjs "$out" || rc=1
exit $rc
