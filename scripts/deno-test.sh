#!/usr/bin/env bash
# Runs the behavioural suite (test/behaviour) and the Deno-only tests (test/deno) under the real Deno
# runtime from the npm package `deno`, against the built single-file bundle dist/toolnexus.js.
# `vitest` is mapped to a small shim over Deno.test (test/deno/vitest-shim.ts). Nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
export DENO_DIR="${DENO_DIR:-$PWD/node_modules/.cache/deno}"   # keep Deno's cache out of $HOME
DENO=node_modules/.bin/deno
[ -f dist/toolnexus.js ] || npm run -s build
# --no-remote/--cached-only: any download attempt is an error; --unstable-kv: Deno.openKv;
# --no-check: tsc checks the suite against the sources; --allow-env=OTEL_*: the OpenTelemetry SDK the otel
# tests trace into reads its OTEL_* settings when a provider is made. Extra arguments go to `deno test`.
# The import map sends `toolnexus` to the single file, and the core the subpaths built over it import
# (toolnexus/agents, /otel, /testing: `./index.js`) to that same file, so a test loads one copy of the core.
FLAGS=(--no-remote --cached-only --no-lock --node-modules-dir=manual --unstable-kv --allow-net=127.0.0.1 --no-check --allow-read=. '--allow-env=OTEL_*' --import-map=test/deno/import-map.json)
"$DENO" --version | head -1
"$DENO" test "${FLAGS[@]}" "$@" test/behaviour/ test/deno/
