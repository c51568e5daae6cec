"""The scripts of examples/python (README "Python" and "Many machines") run as written."""
import os
import subprocess
import sys

from conftest import ROOT, run_cli


def run_example(name, *args):
    env = dict(os.environ)
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / name), *map(str, args)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_query_sample(sample_db):
    out = run_example("query_sample.py", sample_db)
    assert "3099 games" in out and "error at line 1" in out


def test_dask_sample(sample_db, tmp_path):
    run_cli("shard", "--db", sample_db, "--shards", 4, "--out", tmp_path / "sharded")
    out = run_example("dask_sample.py", tmp_path / "sharded")
    assert "mates over 4 shards" in out
