#!/usr/bin/env bash
# Regenerates tests/cql6/expected/ with a CQL 6.2 binary the user provides (this script
# runs it; it does not build it). Usage:
#
#   tests/cql6/run-cql62.sh --cql PATH [--only REGEX] [--fixture FILE] [--slice FILE]
#                           [--out DIR] [--times FILE] [--no-slice] [--threads N]
#
# For every script in tests/cql6/scripts/ and tests/cql6/scripts-part2/ it runs
#   PATH -singlethreaded -showmatches -input INPUT.pgn -output OUT.pgn SCRIPT.cql
# over the fixture (tests/cql6/fixture.pgn) and over the slice (the first 20,000 games of
# ../shared/corpus/players-344k.pgn.zst, made here into a temporary file unless --slice is
# given), and writes expected/NAME.fixture and expected/NAME.slice: the matched game
# numbers, one per line, in CQL 6.2's output order (ascending, except for scripts with
# `sort`, where CQL 6.2 writes the games sorted). For scripts using comment/sort/settag it
# also writes NAME.fixture.comments and NAME.slice.comments (see README.md). The script's
# own `input` header is overridden by -input, as CQL 6.2 does for a command-line input.
#
# Game numbers come from CQL 6.2 itself: the "Game number N" comment it writes at the
# start of every output game and, independently, the numbers -showmatches prints as games
# match; the two must agree (scripts with `silent` write no comments: -showmatches alone).
# Times (wall and user+sys CPU of the CQL process, over the slice) go to --times.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 - "$here" "$@" <<'PYEOF'
import argparse, os, re, resource, subprocess, sys, tempfile, time

here = sys.argv[1]
ap = argparse.ArgumentParser(prog="run-cql62.sh")
ap.add_argument("--cql", required=True, help="a CQL 6.2 binary")
ap.add_argument("--only", default="", help="regex on script names")
ap.add_argument("--fixture", default=os.path.join(here, "fixture.pgn"))
ap.add_argument("--slice", default="", help="PGN of the slice (default: made from the corpus)")
ap.add_argument("--slice-games", type=int, default=20000)
ap.add_argument("--corpus", default=os.path.join(here, "../../../shared/corpus/players-344k.pgn.zst"))
ap.add_argument("--out", default=os.path.join(here, "expected"))
ap.add_argument("--times", default=os.path.join(here, "cql62-times.txt"))
ap.add_argument("--no-slice", action="store_true", help="fixture only")
ap.add_argument("--threads", type=int, default=0, help="0 = -singlethreaded (default)")
args = ap.parse_args(sys.argv[2:])

def make_slice(path):
    """The first --slice-games games of the corpus: text up to the (N+1)th [Event line."""
    n = 0
    with subprocess.Popen(["zstd", "-dc", args.corpus], stdout=subprocess.PIPE) as z, open(path, "wb") as out:
        for line in z.stdout:
            if line.startswith(b"[Event "):
                n += 1
                if n > args.slice_games:
                    break
            out.write(line)
        z.kill()

GAMENO = re.compile(r"\{[^}]*?Game\s+number\s+(\d+)[^}]*\}")
SHOW = re.compile(r"<(?:\d+:)?(\d+)>")

def split_output(text):
    """Output games: (game number or None, movetext comments, tags) in output order."""
    games = []
    for g in re.split(r"(?m)^(?=\[Event )", text):
        if not g.strip():
            continue
        m = GAMENO.search(g)
        games.append((int(m.group(1)) if m else None, g))
    return games

TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\(|\)|\$\d+|\d+\.(?:\.\.)?|[^\s(){};]+")

def compact_comments(g):
    """The output game's tags and one line per comment of its movetext, in order:
    variation depth (0 = main line), the move before it (`start` before the first move),
    the text with whitespace runs made one space. The "Game number N" CQL 6.2 adds to the
    first comment is removed; comments that were already in the input game stay."""
    body = g.split("\n\n", 1)[1] if "\n\n" in g else ""
    tags = [l for l in g.split("\n\n", 1)[0].splitlines() if l.startswith("[")]
    out, depth, last, moveno = [], 0, "start", ""
    for t in TOKEN.findall(body):
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif t.startswith("{"):
            text = " ".join(t[1:-1].split())
            text = re.sub(r"\s*Game number \d+\s*", " ", text).strip()
            if text:
                out.append(f"{depth}\t{last}\t{text}")
        elif t.startswith(";") or t.startswith("$"):
            pass
        elif re.fullmatch(r"\d+\.(\.\.)?", t):
            moveno = t
        elif t in ("1-0", "0-1", "1/2-1/2", "*"):
            pass
        else:
            last = (moveno + t) if moveno else t
            moveno = ""
    return tags, out

def run(script, pgn, label, outdir):
    name = os.path.splitext(os.path.basename(script))[0]
    src = open(script, encoding="utf-8").read()
    silent = re.search(r"cql\s*\([^)]*\bsilent\b", src) is not None
    wants_comments = re.search(r"\b(comment|sort|settag)\b", re.sub(r"//[^\n]*|/\*.*?\*/", "", src, flags=re.S)) is not None
    with tempfile.TemporaryDirectory() as tmp:
        outpgn = os.path.join(tmp, "out.pgn")
        cmd = [args.cql]
        cmd += ["-singlethreaded"] if args.threads == 0 else ["-threads", str(args.threads)]
        cmd += ["-showmatches", "-input", os.path.abspath(pgn), "-output", outpgn, os.path.abspath(script)]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.time()
        p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, errors="replace")
        wall = time.time() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        if p.returncode != 0 or not os.path.exists(outpgn):
            msg = (p.stdout[-800:] + p.stderr[-800:]).strip().replace("\n", " | ")
            print(f"{name} {label}: CQL FAILED rc={p.returncode}: {msg}", file=sys.stderr)
            return None
        shown = [int(x) for x in SHOW.findall(p.stdout)]
        text = open(outpgn, encoding="utf-8", errors="replace").read()
        games = split_output(text)
        if silent:
            order = shown
        else:
            order = [n for n, _ in games]
            if None in order:
                print(f"{name} {label}: an output game without 'Game number'", file=sys.stderr)
                return None
            if sorted(order) != sorted(shown):
                print(f"{name} {label}: -showmatches and output disagree ({len(shown)} vs {len(order)})", file=sys.stderr)
                return None
        if len(order) != len(games) and not silent:
            return None
        with open(os.path.join(outdir, f"{name}.{label}"), "w") as f:
            f.writelines(f"{n}\n" for n in order)
        if wants_comments and not silent:
            with open(os.path.join(outdir, f"{name}.{label}.comments"), "w") as f:
                for n, g in games:
                    tags, comments = compact_comments(g)
                    f.write(f"game {n}\n")
                    for t in tags:
                        if t.startswith("[Cql") or re.match(r"\[(Motif|CQL)", t):
                            f.write(f"tag\t{t}\n")
                    for c in comments:
                        f.write(f"{c}\n")
        return len(order), wall, cpu

scripts = []
for sub in ("scripts", "scripts-part2"):
    d = os.path.join(here, sub)
    for f in sorted(os.listdir(d)):
        if f.endswith(".cql") and re.search(args.only, f):
            scripts.append(os.path.join(d, f))
os.makedirs(args.out, exist_ok=True)
slice_pgn = args.slice
tmpdir = tempfile.mkdtemp()
if not args.no_slice and not slice_pgn:
    slice_pgn = os.path.join(tmpdir, "players-slice.pgn")
    make_slice(slice_pgn)
times = []
for s in scripts:
    name = os.path.splitext(os.path.basename(s))[0]
    rf = run(s, args.fixture, "fixture", args.out)
    rs = None if args.no_slice else run(s, slice_pgn, "slice", args.out)
    line = f"{name:36s} fixture {rf[0] if rf else 'FAIL':>5}"
    if rs:
        line += f"  slice {rs[0]:>5}  wall {rs[1]:7.2f} s  cpu {rs[2]:7.2f} s"
    elif not args.no_slice:
        line += "  slice FAIL"
    print(line, flush=True)
    times.append(line)
if not args.no_slice and not args.only:
    with open(args.times, "w") as f:
        f.write("# CQL 6.2 per script: matched games over the fixture and the slice (first 20,000 games of\n"
                "# players-344k), wall and CPU (user+sys) seconds of the CQL process over the slice,\n"
                f"# {'-singlethreaded' if args.threads == 0 else '-threads %d' % args.threads}. Taken on a shared 2-core machine: noisy.\n")
        f.write("\n".join(times) + "\n")
PYEOF
