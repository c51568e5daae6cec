#!/bin/bash
# Issue 18's import figure: N alternating imports of a corpus into fresh databases, with the
# position index and with `--no-position-index`, printing wall, user and system seconds and
# peak RSS of each (GNU time), each pair's wall-time ratio, and at the end the ratio of the
# summed wall times (the machine's speed drifts from minute to minute: compare pairs, not
# single runs). Usage:
#   bench/import_position_index_ab.sh [N (3)] [CQLDB (build/cqldb)] [PGN (../shared/corpus/players-344k.pgn.zst)]
set -euo pipefail
n=${1:-3}
cqldb=${2:-build/cqldb}
pgn=${3:-../shared/corpus/players-344k.pgn.zst}
tmp=${TMPDIR:-/tmp}
log=$(mktemp)
trap 'rm -f "$log"; rm -rf "$tmp/cqldb-import-ab-on" "$tmp/cqldb-import-ab-off"' EXIT
for i in $(seq "$n"); do
  for mode in on off; do
    db="$tmp/cqldb-import-ab-$mode"
    rm -rf "$db"
    flag=()
    [ "$mode" = off ] && flag=(--no-position-index)
    /usr/bin/time -f "$mode: wall %e s, user %U s, sys %S s, peak RSS %M KB" \
      "$cqldb" import -q "${flag[@]}" --db "$db" "$pgn" 2>&1 | grep -E "^(on|off):|position index: [0-9]" | tee -a "$log"
  done
  awk '/^on:/{on=$3} /^off:/{off=$3} END{printf "pair %d: with / without the index %.2fx\n", '"$i"', on/off}' "$log"
done
awk '/^on:/{on+=$3} /^off:/{off+=$3} END{printf "sum of %d pairs: with %.2f s, without %.2f s: %.3fx (issue 18 target <= 1.10x)\n", NR/2, on, off, on/off}' \
  <(grep -E "^(on|off):" "$log")
