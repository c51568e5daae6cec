#!/usr/bin/env bash
# README command 1: installs missing Debian packages, builds cqldb, imports the bundled
# sample of real games into ./sample-db and shows what is in it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-deps
bash .ci/build
rm -rf sample-db
echo
echo "== cqldb import: the bundled sample (examples/sample/)"
./build/cqldb import --db sample-db examples/sample/players-3000.pgn.zst \
  examples/sample/annotated-40.pgn examples/sample/studies-30.pgn examples/sample/mates-30.pgn
echo
echo "== cqldb info"
./build/cqldb info --db sample-db --log 5
echo
echo "== cqldb export --id 3001 (an annotated game with variations, comments and NAGs)"
./build/cqldb export --db sample-db --id 3001 | head -30
