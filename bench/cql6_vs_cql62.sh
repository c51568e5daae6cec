#!/usr/bin/env bash
# Issues 36/37's side-by-side figure: every CQL 6 script of tests/cql6/scripts/ and
# tests/cql6/scripts-part2/ run by CQL 6.2 (a binary the user provides) over a PGN file and
# by cqldb over a database holding that same file, one after the other in one run. Prints per
# script the wall and CPU (user+sys) seconds of each, the ratio CQL 6.2 / cqldb (wall and
# CPU), the number of games each matched, and whether the game sets agree (for scripts with
# `sort`, whether the order agrees too). Games are compared by their 1-based ordinal in the
# PGN file: CQL 6.2's "Game number N" (from -showmatches) against cqldb's jsonl `ordinal` of
# the games whose `file` is that PGN. Usage:
#
#   bench/cql6_vs_cql62.sh --cql PATH --cqldb PATH --db DIR --pgn FILE
#                          [--threads N (2)] [--only REGEX] [--import]
#                          [--cql-cache DIR] [--cql-only] [--cqldb-only]
#
# --import first imports FILE into DIR (which must not exist yet); otherwise DIR must already
# hold FILE (imported under that path). The machine is shared: repeat the important rows.
# --cql-cache DIR keeps CQL 6.2's result per script and input (DIR/NAME.THREADS.json: games,
# wall, cpu) and reuses it: CQL 6.2 takes about a minute of CPU per script over players-344k,
# so its runs can be made once, early and in the background (--cql-only), and set beside
# cqldb's later. --cqldb-only runs cqldb alone (no CQL 6.2 columns). A reused row is marked
# "(cached)".
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 - "$root" "$@" <<'PYEOF'
import argparse, json, os, re, resource, subprocess, sys, tempfile, time

root = sys.argv[1]
ap = argparse.ArgumentParser(prog="cql6_vs_cql62.sh")
ap.add_argument("--cql", required=True)
ap.add_argument("--cqldb", required=True)
ap.add_argument("--db", required=True)
ap.add_argument("--pgn", required=True)
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--only", default="")
ap.add_argument("--import", dest="do_import", action="store_true")
ap.add_argument("--cql-cache", default="")
ap.add_argument("--cql-only", action="store_true")
ap.add_argument("--cqldb-only", action="store_true")
args = ap.parse_args(sys.argv[2:])
pgn = os.path.abspath(args.pgn)

def timed(cmd, cwd=None):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace")
    wall = time.time() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p, wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

if args.do_import:
    p, wall, cpu = timed([args.cqldb, "import", "--db", args.db, pgn])
    if p.returncode != 0:
        sys.exit("import failed: " + p.stderr[-2000:])
    print(f"import: wall {wall:.1f} s, cpu {cpu:.1f} s")

SHOW = re.compile(r"<(?:\d+:)?(\d+)>")
GAMENO = re.compile(r"\{[^}]*?Game\s+number\s+(\d+)")

def run_cql(script):
    if args.cql_cache:
        name = os.path.splitext(os.path.basename(script))[0]
        key = os.path.join(args.cql_cache, f"{name}.{args.threads}.json")
        if os.path.exists(key):
            o = json.load(open(key))
            if o.get("pgn") == pgn and o.get("script") == open(script).read():
                return o["games"], o["wall"], o["cpu"], "cached"
        r = run_cql_now(script)
        if r[0] is not None:
            os.makedirs(args.cql_cache, exist_ok=True)
            json.dump({"pgn": pgn, "script": open(script).read(), "games": r[0], "wall": r[1], "cpu": r[2]},
                      open(key, "w"))
        return r
    return run_cql_now(script)

def run_cql_now(script):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.pgn")
        p, wall, cpu = timed([args.cql, "-threads", str(args.threads), "-showmatches",
                              "-input", pgn, "-output", out, script], cwd=tmp)
        if p.returncode != 0:
            return None, wall, cpu, (p.stdout + p.stderr)[-300:].replace("\n", " ")
        shown = [int(x) for x in SHOW.findall(p.stdout)]
        order = [int(x) for x in GAMENO.findall(open(out, errors="replace").read())] if os.path.exists(out) else []
        # Output order (sort scripts) when every output game carries its number, else the set.
        games = order if sorted(order) == sorted(shown) and order else sorted(shown)
        return games, wall, cpu, ""

def run_cqldb(script):
    p, wall, cpu = timed([args.cqldb, "query", "--db", args.db, "--threads", str(args.threads),
                          "--format", "jsonl", script])
    if p.returncode != 0:
        return None, wall, cpu, p.stderr.strip().splitlines()[-1:] or [""]
    games = []
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        o = json.loads(line)
        f = o.get("file", "")
        if f and os.path.basename(f) != os.path.basename(pgn):
            continue
        games.append(int(o["ordinal"]))
    return games, wall, cpu, ""

scripts = []
for sub in ("tests/cql6/scripts", "tests/cql6/scripts-part2"):
    d = os.path.join(root, sub)
    scripts += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".cql") and re.search(args.only, f)]

print(f"{'script':34s} {'cql6.2 wall/cpu s':>18s} {'cqldb wall/cpu s':>17s} {'ratio wall/cpu':>15s} {'games':>13s}  agree")
agree = 0
worst = None
for s in scripts:
    name = os.path.splitext(os.path.basename(s))[0]
    if args.cqldb_only:
        b, bw, bc, berr = run_cqldb(s)
        print(f"{name:34s} cqldb {bw:7.2f} s wall /{bc:7.2f} s cpu  {len(b) if b is not None else 'error: ' + str(berr)} games", flush=True)
        continue
    a, aw, ac, aerr = run_cql(s)
    if args.cql_only:
        print(f"{name:34s} CQL 6.2 {aw:8.2f} s wall /{ac:8.2f} s cpu  {len(a) if a is not None else 'error: ' + aerr} games {aerr if a is not None else ''}", flush=True)
        continue
    b, bw, bc, berr = run_cqldb(s)
    if a is None or b is None:
        print(f"{name:34s} {'CQL 6.2 error: ' + aerr if a is None else ''} {'cqldb error: ' + str(berr) if b is None else ''}")
        continue
    sorted_script = re.search(r"\bsort\b", re.sub(r"//[^\n]*|/\*.*?\*/", "", open(s).read(), flags=re.S))
    same = (a == b) if sorted_script else (sorted(set(a)) == sorted(set(b)))
    agree += same
    rw = aw / bw if bw > 0 else float("inf")
    rc = ac / bc if bc > 0 else float("inf")
    if worst is None or rw < worst[1]:
        worst = (name, rw)
    print(f"{name:34s} {aw:8.2f} /{ac:8.2f} {bw:7.2f} /{bc:7.2f} {rw:7.1f}x /{rc:6.1f}x {len(a):6d}/{len(b):<6d}  "
          f"{'yes' if same else 'NO'}{' (order)' if sorted_script else ''}{' (CQL 6.2 cached)' if aerr == 'cached' else ''}", flush=True)
if args.cql_only or args.cqldb_only:
    sys.exit(0)
print(f"agree: {agree} of {len(scripts)} scripts" + (f"; slowest ratio: {worst[0]} {worst[1]:.1f}x" if worst else ""))
PYEOF
