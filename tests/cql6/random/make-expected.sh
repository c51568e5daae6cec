#!/usr/bin/env bash
# Regenerates tests/cql6/random/scripts/ and expected.txt with a CQL 6.2 binary the user
# provides (this script runs it; it does not build it). Usage:
#
#   tests/cql6/random/make-expected.sh --cql PATH [--timeout SECONDS]
#
# It writes the scripts of gen.py for the sets below (issue 36's families, with issue 37's
# mixed in for some), runs `PATH -singlethreaded -showmatches -input fixture.pgn -output
# TMP.pgn SCRIPT` on each, and keeps the scripts CQL 6.2 accepts and answers within the
# timeout (default 30 s): expected.txt gets one line per kept script, `NAME: N1 N2 ...`
# (the game numbers it matched, ascending; none after the colon when it matched nothing).
# A dropped script is deleted, so the set is exactly what CQL 6.2 decided.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 - "$here" "$@" <<'PYEOF'
import argparse, glob, os, re, subprocess, sys, tempfile

here = sys.argv[1]
ap = argparse.ArgumentParser(prog="make-expected.sh")
ap.add_argument("--cql", required=True, help="a CQL 6.2 binary")
ap.add_argument("--timeout", type=float, default=30.0)
args = ap.parse_args(sys.argv[2:])

SETS = [  # (seed, count, first, part-2 share)
    (11, 250, 0, 0.0),
    (12, 250, 250, 0.4),
    (31, 200, 500, 0.5),  # round 3 session 8
    (32, 200, 700, 0.0),
]
out_dir = os.path.join(here, "scripts")
os.makedirs(out_dir, exist_ok=True)
for f in glob.glob(os.path.join(out_dir, "r*.cql")):
    os.remove(f)
for seed, count, first, share in SETS:
    subprocess.run([sys.executable, os.path.join(here, "gen.py"), "--seed", str(seed), "--count", str(count),
                    "--first", str(first), "--part2", str(share), "--out", out_dir], check=True)

SHOW = re.compile(r"<(?:\d+:)?(\d+)>")
fixture = os.path.join(here, "..", "fixture.pgn")
lines, dropped = [], 0
with tempfile.TemporaryDirectory() as tmp:
    for script in sorted(glob.glob(os.path.join(out_dir, "r*.cql"))):
        name = os.path.basename(script)[:-4]
        try:
            p = subprocess.run([args.cql, "-singlethreaded", "-showmatches", "-input", fixture, "-output",
                                os.path.join(tmp, "out.pgn"), script], capture_output=True, text=True,
                               errors="replace", timeout=args.timeout)
            text = p.stdout + p.stderr
            ok = p.returncode == 0 and "matches of" in text
        except subprocess.TimeoutExpired:
            ok = False
        if not ok:
            os.remove(script)
            dropped += 1
            continue
        games = sorted(set(int(g) for g in SHOW.findall(text)))
        lines.append(name + ":" + "".join(" " + str(g) for g in games))
with open(os.path.join(here, "expected.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} scripts kept, {dropped} dropped (refused by CQL 6.2 or over {args.timeout:g} s)")
PYEOF
