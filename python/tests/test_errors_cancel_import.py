"""Errors as Python exceptions, cancelling a query (Ctrl-C, an event, a raising callback) and
importing with progress (issue 38)."""
import os
import signal
import threading
import time

import pytest

import cqldb
from conftest import SAMPLE, run_cli

SLOW = "(match (position :maxswapevaluation A a >=3 :btm))"  # every position of every game


def test_query_error_has_line_and_column(sample_db):
    with cqldb.Database(sample_db) as db:
        script = "(match\n  (position :nosuchkeyword))"
        with pytest.raises(cqldb.QueryError) as info:
            db.query(script)
        e = info.value
        assert (e.line, e.column) == (2, 13)
        cli = run_cli("query", "--db", sample_db, "-e", script, check=False)
        assert cli.returncode == 2
        assert str(e).replace("query:", "-e:", 1) == cli.stderr.strip()
        assert isinstance(e, ValueError)


def test_database_errors(tmp_path):
    with pytest.raises(cqldb.DatabaseError, match="does not exist"):
        cqldb.Database(tmp_path / "missing")
    with pytest.raises(cqldb.DatabaseError, match="holds no cqldb database"):
        cqldb.Database(tmp_path)
    with pytest.raises(cqldb.DatabaseError, match="no such file"):
        cqldb.import_pgn(tmp_path / "db", [tmp_path / "none.pgn"])


def test_open_twice_refused(sample_db):
    with cqldb.Database(sample_db):
        with pytest.raises(cqldb.DatabaseError, match="already open"):
            cqldb.Database(sample_db)
    cqldb.Database(sample_db).close()  # closed: may be opened again


def test_ctrl_c_cancels_a_query(sample_db):
    with cqldb.Database(sample_db) as db:
        full = db.query(SLOW, threads=1, planner=False).stats["seconds"]
        timer = threading.Timer(full / 5, lambda: os.kill(os.getpid(), signal.SIGINT))
        start = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            db.query(SLOW, threads=1, planner=False)
        assert time.monotonic() - start < full * 0.8
        # the handler is Python's again
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_event_and_progress_cancel(sample_db):
    with cqldb.Database(sample_db) as db:
        event = threading.Event()
        calls = []

        def progress(searched, total, matches):
            calls.append((searched, total, matches))
            event.set()

        result = db.query(SLOW, threads=1, planner=False, progress=progress, cancel=event)
        assert calls and result.stats["cancelled"]
        full = db.query(SLOW, threads=1)
        assert set(result.ids) <= set(full.ids)

        def failing(*_):
            raise RuntimeError("stop here")

        with pytest.raises(RuntimeError, match="stop here"):
            db.query(SLOW, threads=1, planner=False, progress=failing)


def test_gil_released_during_query(sample_db):
    with cqldb.Database(sample_db) as db:
        ticks = []
        stop = threading.Event()

        def ticker():
            while not stop.is_set():
                ticks.append(1)
                time.sleep(0.005)

        thread = threading.Thread(target=ticker)
        thread.start()
        result = db.query(SLOW, threads=1, planner=False)
        stop.set()
        thread.join()
        # the ticker ran while the query held no GIL
        assert len(ticks) >= max(3, int(result.stats["seconds"] / 0.005 / 4))


def test_import_with_progress(tmp_path, sample_db):
    seen = []
    summary = cqldb.import_pgn(tmp_path / "db", [SAMPLE / "players-3000.pgn.zst", SAMPLE / "mates-30.pgn"],
                               progress=seen.append)
    games = summary["imported"]
    assert summary["games_read"] == 3030 and games + summary["rejected"] == 3030 and not summary["interrupted"]
    assert summary["first_id"] == 1 and summary["last_id"] == games
    assert seen and seen[-1]["games_read"] <= 3030 and "file" in seen[-1]
    again = cqldb.import_pgn(tmp_path / "db", SAMPLE / "mates-30.pgn", skip_duplicates=True)
    assert again["skipped_duplicates"] == 30 and again["imported"] == 0
    with cqldb.Database(tmp_path / "db") as db:
        assert db.info()["games"] == games
        with pytest.raises(cqldb.DatabaseError, match="is open in this process"):
            cqldb.import_pgn(tmp_path / "db", SAMPLE / "mates-30.pgn")
        # the same answers as the command's database of the same files
        script = "(match (position :mate))"
        with cqldb.Database(sample_db) as reference:
            mates = [r for r in reference.query(script) if r["id"] <= 3000]
        assert [r["id"] for r in db.query(script) if r["id"] <= 3000] == [r["id"] for r in mates]


def test_progress_exception_stops_import(tmp_path):
    def failing(p):
        raise KeyError("enough")

    with pytest.raises(KeyError):
        cqldb.import_pgn(tmp_path / "db", SAMPLE / "players-3000.pgn.zst", progress=failing)
