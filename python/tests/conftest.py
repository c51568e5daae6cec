"""Fixtures of the Python module's tests (issue 38): the `cqldb` command and the sample
database, imported once per session by the command (examples/sample/, as README's first
command imports it). Run by .ci/run as

    PYTHONPATH=build/python CQLDB_BIN=build/cqldb python3 -m pytest python/tests
"""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "sample"
SAMPLE_FILES = [SAMPLE / "players-3000.pgn.zst", SAMPLE / "annotated-40.pgn", SAMPLE / "studies-30.pgn",
                SAMPLE / "mates-30.pgn"]


def cqldb_bin() -> str:
    return os.environ.get("CQLDB_BIN", str(ROOT / "build" / "cqldb"))


def run_cli(*args, check=True) -> subprocess.CompletedProcess:
    """Runs the cqldb command; stdout and stderr as text."""
    return subprocess.run([cqldb_bin(), *map(str, args)], capture_output=True, text=True, check=check)


def cli_jsonl(db, text, *extra):
    out = run_cli("query", "--db", db, "-e", text, "--format", "jsonl", "--quiet", *extra).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def bench_queries():
    """(name, script) of bench_query's built-in suite (bench/bench_queries.h kQueries)."""
    text = (ROOT / "bench" / "bench_queries.h").read_text()
    body = text[text.index("kQueries[] = {"):text.index("};", text.index("kQueries[] = {"))]
    literal = r'"((?:[^"\\]|\\.)*)"'
    out = []
    for name, script in re.findall(r"\{" + literal + r",\s*" + literal + r"\}", body):
        unescape = lambda s: s.replace('\\"', '"').replace("\\\\", "\\")
        out.append((unescape(name), unescape(script)))
    assert len(out) >= 30, "bench_queries.h: the query list was not found"
    return out


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory) -> str:
    """The sample imported by the command into a fresh directory."""
    path = tmp_path_factory.mktemp("sample") / "db"
    run_cli("import", "--db", path, *SAMPLE_FILES)
    return str(path)
