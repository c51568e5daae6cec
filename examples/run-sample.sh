#!/usr/bin/env bash
# README command 1: installs missing Debian packages, builds cqldb, imports the bundled
# sample of real games into ./sample-db, shows what is in it and runs example queries.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash .ci/install-deps
bash .ci/build cqldb _cqldb  # the command and the Python module; `bash .ci/run` builds and runs the tests
# Put cqldb on PATH: /usr/local/bin as root, else ~/.local/bin; the Python module `cqldb` into
# python3's site-packages (Debian's python3: /usr/local/lib/python3.X/dist-packages as root,
# the user site-packages otherwise).
python=/usr/bin/python3; [ -x "$python" ] || python=python3
if [ "$(id -u)" = 0 ]; then
  cmake --install build >/dev/null
else
  cmake -S . -B build -DCQLDB_PYTHON_INSTALL_DIR="$("$python" -m site --user-site)" >/dev/null
  cmake --install build --prefix "$HOME/.local" >/dev/null
  case ":$PATH:" in *":$HOME/.local/bin:"*) ;; *) export PATH="$HOME/.local/bin:$PATH"
    echo "note: add $HOME/.local/bin to PATH to run cqldb by name" ;; esac
fi
cmake --install build --component python >/dev/null
echo "installed $(command -v cqldb): $(cqldb --version)"
echo "installed the Python module: $("$python" -c 'import cqldb; print(cqldb.__file__)')"
rm -rf sample-db
cqldb=cqldb
echo
echo "== cqldb import: the bundled sample (examples/sample/)"
$cqldb import --db sample-db examples/sample/players-3000.pgn.zst \
  examples/sample/annotated-40.pgn examples/sample/studies-30.pgn examples/sample/mates-30.pgn
echo
echo "== cqldb info"
$cqldb info --db sample-db --log 5
echo
echo "== cqldb export --id 3001 (an annotated game with variations, comments and NAGs)"
$cqldb export --db sample-db --id 3001 | sed -n "1,24p"
for q in examples/queries/*.cql; do
  echo
  echo "== cqldb query $q"
  grep '^;' "$q" || true
  $cqldb query --db sample-db "$q" --format table --limit 8
done
echo
echo "== cqldb query -e '(match (position Ra3))' --format ids --limit 5"
$cqldb query --db sample-db -e '(match (position Ra3))' --format ids --limit 5
echo
echo "== cqldb query -e '(match :player Alekhine (position :mate))' --format jsonl --limit 2"
$cqldb query --db sample-db -e '(match :player Alekhine (position :mate))' --format jsonl --limit 2
echo
echo "== cqldb query --format pgn: the first underpromotion, with {MATCH} at the matched position"
$cqldb query --db sample-db examples/queries/underpromotion.cql --format pgn --limit 1 | tail -12
echo
echo "== cqldb query: side to move 3 pawns ahead by stockfish at depth 8 (material and move number prune first)"
$cqldb query --db sample-db -e '(match (position :flipcolor :wtm :movenumber >=30 :powerdifference U >=3 :evaluation depth 8 >=3 sidetomove))' --format ids --limit 5
echo
echo "== Python: examples/python/query_sample.py (README \"Python\")"
"$python" examples/python/query_sample.py sample-db
echo
echo "== cqldb help :mate (every keyword: cqldb help keywords; the language: docs/cql.md)"
$cqldb help :mate
echo
echo "set-up and examples took $(( $(date +%s) - start )) s"
echo
echo "== see the games in a browser: start the web interface on the sample database"
echo "   cqldb serve --db sample-db        # then open http://127.0.0.1:8080/ (Ctrl-C stops it)"
