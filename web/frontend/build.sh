#!/usr/bin/env bash
# Builds the page's bundle (web/frontend/build.mjs) into OUT_DIR, first installing the npm
# packages of package-lock.json (`npm ci`) when node_modules is missing or older than it.
# Called by CMakeLists.txt (target cqldb_web_bundle).   bash build.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")"
out=$1
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "cqldb: the web page needs Node.js and npm to bundle chessground and chessops (web/frontend):" \
       "install them (Debian: apt-get install nodejs npm, or run .ci/install-deps)" >&2
  exit 1
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if ! npm ci --no-audit --no-fund --loglevel=error >&2; then
    echo "cqldb: 'npm ci' failed in web/frontend (is the npm registry reachable? the packages are" \
         "chessground, chessops and esbuild, see package-lock.json)" >&2
    exit 1
  fi
fi
mkdir -p "$out"
node build.mjs "$out"
