#!/usr/bin/env python3
"""Python, sharded and Dask figures of issue 38, over bench_query's query set
(bench/bench_queries.h):

  1. the module's overhead: Database.query's wall time (compile, run, rows as dicts) against
     the run itself (stats["seconds"]) and against `cqldb query --format jsonl` (the
     command's wall time, process start and output included);
  2. a sharded database against the unsharded one, both read by the module in this process
     (shards in parallel, the threads shared);
  3. Dask (a LocalCluster of one-thread workers): per query the wall time against the
     slowest shard's task (time inside the task), the difference being scheduling, transfer
     and merge.

    PYTHONPATH=build/python python3 bench/bench_python.py --db DB [--shards 4] [--workers 2]
        [--repeat 3] [--cqldb build/cqldb] [--no-overhead] [--no-sharded] [--no-dask]

DB is an ordinary database; DB-sharded-K is made beside it by `cqldb shard` when missing.
Figures are the fastest of --repeat runs; CPU time (user+sys of this process) beside wall
time where it means something.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import cqldb

ROOT = Path(__file__).resolve().parents[1]


def bench_queries():
    text = (ROOT / "bench" / "bench_queries.h").read_text()
    start = text.index("kQueries[] = {")
    body = text[start:text.index("};", start)]
    literal = r'"((?:[^"\\]|\\.)*)"'
    unescape = lambda s: s.replace('\\"', '"').replace("\\\\", "\\")
    return [(unescape(a), unescape(b)) for a, b in re.findall(r"\{" + literal + r",\s*" + literal + r"\}", body)]


def cpu():
    """CPU seconds (user+sys) of this process and of its finished children (the commands)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime


def fastest(fn, repeat):
    best = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), cpu()
        value = fn()
        wall, cpu_s = time.perf_counter() - t0, cpu() - c0
        if best is None or wall < best[0]:
            best = (wall, cpu_s, value)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cqldb", default=str(ROOT / "build" / "cqldb"))
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--no-overhead", action="store_true", help="skip part 1 (the module against the command)")
    ap.add_argument("--no-sharded", action="store_true", help="skip part 2 (sharded against unsharded)")
    args = ap.parse_args()
    queries = bench_queries()
    sharded = "%s-sharded-%d" % (args.db.rstrip("/"), args.shards)
    if not os.path.exists(sharded):
        subprocess.run([args.cqldb, "shard", "--db", args.db, "--shards", str(args.shards), "--out", sharded],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    if not args.no_overhead:
        overhead(args, queries)
    if not args.no_sharded:
        sharded_vs_unsharded(args, queries, sharded)
    if not args.no_dask:
        dask_overhead(args, queries, sharded)


def overhead(args, queries):
    print("== 1. Python overhead: Database.query (rows as dicts) vs the run inside it vs `cqldb query --format jsonl`")
    print("%-30s %8s %9s %9s %9s %7s %9s %9s" % ("query", "matches", "run s", "python s", "cli s", "py/run",
                                                 "py CPU s", "cli CPU s"))
    tot = {"run": 0.0, "py": 0.0, "cli": 0.0, "py_cpu": 0.0, "cli_cpu": 0.0}
    with cqldb.Database(args.db) as db:
        db.query(queries[0][1])  # warm the page cache
        for name, script in queries:
            wall, py_cpu, result = fastest(lambda: db.query(script), args.repeat)
            run = result.stats["seconds"]
            cli, cli_cpu, _ = fastest(lambda: subprocess.run(
                [args.cqldb, "query", "--db", args.db, "-e", script, "--format", "jsonl", "--quiet", "-o", "/dev/null"],
                check=True, stderr=subprocess.DEVNULL), args.repeat)
            tot["run"] += run
            tot["py"] += wall
            tot["cli"] += cli
            tot["py_cpu"] += py_cpu
            tot["cli_cpu"] += cli_cpu
            print("%-30s %8d %9.4f %9.4f %9.4f %6.1f%% %9.3f %9.3f" % (name[:30], len(result), run, wall, cli,
                                                                  100 * (wall / run - 1), py_cpu, cli_cpu))
    print("%-30s %8s %9.3f %9.3f %9.3f %6.1f%% %9.3f %9.3f" % (
        "total", "", tot["run"], tot["py"], tot["cli"], 100 * (tot["py"] / tot["run"] - 1), tot["py_cpu"], tot["cli_cpu"]))
    print("python vs cli: wall %+.1f%%, CPU %+.1f%% (target: wall <= +5%%)" % (
        100 * (tot["py"] / tot["cli"] - 1), 100 * (tot["py_cpu"] / tot["cli_cpu"] - 1)))


def sharded_vs_unsharded(args, queries, sharded):
    print()
    print("== 2. sharded (%d shards) vs unsharded, both in this process, all cores" % args.shards)
    one_total = many_total = one_cpu = many_cpu = 0.0
    with cqldb.Database(args.db) as one, cqldb.Database(sharded) as many:
        for name, script in queries:
            w1, c1, r1 = fastest(lambda: one.query(script), args.repeat)
            w2, c2, r2 = fastest(lambda: many.query(script), args.repeat)
            assert r1.ids == r2.ids, name
            one_total += w1
            many_total += w2
            one_cpu += c1
            many_cpu += c2
    print("unsharded %.3f s wall (%.3f s CPU), sharded %.3f s wall (%.3f s CPU): %.2fx wall, %.2fx CPU, answers "
          "identical (target: wall within 10%%)" % (one_total, one_cpu, many_total, many_cpu, many_total / one_total,
                                                    many_cpu / one_cpu))


def dask_overhead(args, queries, sharded):
    from cqldb import dask as cqldb_dask
    from distributed import Client, LocalCluster

    print()
    print("== 3. Dask: LocalCluster(%d workers x 1 thread), %d shards, one task per shard" % (args.workers, args.shards))
    print("%-30s %9s %11s %11s %9s" % ("query", "wall s", "max task s", "sum task s", "overhead"))
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client, cqldb.Database(args.db) as one:
        cqldb_dask.query(client, sharded, queries[0][1]).rows()  # the workers open their shards
        walls, overheads, over_target = [], [], []
        for name, script in queries:
            def run():
                result = cqldb_dask.query(client, sharded, script)
                rows = result.rows()
                return result, rows
            wall, _, (result, rows) = fastest(run, args.repeat)
            assert [r["id"] for r in rows] == one.query(script).ids, name
            tasks = [s["task_seconds"] for s in result.stats["per_shard"]]
            # with fewer workers than shards the tasks queue: the ideal is their sum / workers
            ideal = max(max(tasks), sum(tasks) / args.workers)
            walls.append(wall)
            overheads.append(wall - ideal)
            if wall > 0.050 + 1.05 * ideal:  # the target: <= 50 ms + 5%
                over_target.append(name)
            print("%-30s %9.4f %11.4f %11.4f %8.1f ms" % (name[:30], wall, max(tasks), sum(tasks), 1000 * (wall - ideal)))
        overheads.sort()
        print("overhead (wall - ideal task time) per query: median %.1f ms, max %.1f ms, total wall %.3f s" % (
            1000 * overheads[len(overheads) // 2], 1000 * overheads[-1], sum(walls)))
        print("queries over the target (wall > 50 ms + 1.05 x ideal): %d of %d %s" % (
            len(over_target), len(walls), ", ".join(over_target)))


if __name__ == "__main__":
    sys.exit(main())
