#!/usr/bin/env bash
# `npm test`: every test in every runtime — vitest (Node, Chromium, workerd), Deno, `wrangler dev`,
# the examples — then one closing line `total: N passed, N failed`; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true
export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
out=.ci-out
rm -rf "$out" && mkdir -p "$out"

step() { local s=$SECONDS rc=0; "$@" || rc=$?; echo "[test] '$*' took $((SECONDS - s))s (exit $rc)" >&2; return $rc; }

rc=0
step npm run -s build >"$out/build.txt" 2>&1 || { cat "$out/build.txt"; rc=1; }
step npx vitest run --reporter=default --reporter=json --outputFile.json="$out/vitest.json" || rc=1
step bash scripts/deno-test.sh 2>&1 | tee "$out/deno.txt" || rc=1
for s in scripts/test-*.mjs; do
  [ -e "$s" ] || continue
  step node "$s" 2>&1 | tee "$out/$(basename "$s" .mjs).txt" || rc=1
done

node scripts/tally.mjs "$out" || rc=1
exit $rc
