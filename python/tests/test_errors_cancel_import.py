"""Errors as Python exceptions, cancelling a query (Ctrl-C, an event, a raising callback) and
importing with progress (issue 38)."""
import os
import signal
import threading
import time

import pytest

import cqldb
from conftest import SAMPLE, run_cli

# every position of every game, no match: about 0.2 s on one thread over the sample's 3,099
# games, so the cancel tests run it over the players sample imported 8 times (24,000 games)
SLOW = "(match (position Qd4 Rd2 Nc3 ke6 :shift :flip :flipcolor) (position :flipcolor :shift :flip :maxswapevaluation A a >=12))"


@pytest.fixture(scope="module")
def big_db(tmp_path_factory):
    # eight copies under eight names: the same file named twice is one file to the importer
    # (issue 40: an import goes on after the last game it stored of that path, size and start)
    tmp = tmp_path_factory.mktemp("big")
    copies = []
    for i in range(8):
        copy = tmp / ("players-%d.pgn.zst" % i)
        copy.write_bytes((SAMPLE / "players-3000.pgn.zst").read_bytes())
        copies.append(copy)
    summary = cqldb.import_pgn(tmp / "db", copies)
    assert summary["imported"] == 24000
    return str(tmp / "db")


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


def test_ctrl_c_cancels_a_query(big_db):
    with cqldb.Database(big_db) as db:
        full = db.query(SLOW, threads=1, planner=False)
        assert full.stats["games_replayed"] == full.stats["games_total"]
        seen = []

        def ctrl_c(searched, total, matches):  # called while the replay runs: Ctrl-C now
            seen.append(searched)
            if len(seen) == 1:
                os.kill(os.getpid(), signal.SIGINT)

        with pytest.raises(KeyboardInterrupt):
            db.query(SLOW, threads=1, planner=False, progress=ctrl_c)
        assert seen and seen[0] < full.stats["games_total"]  # the signal came mid-query
        # the handler is Python's again, and the database answers the next query
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert db.query(SLOW, threads=1).ids == full.ids


def test_event_and_progress_cancel(big_db):
    with cqldb.Database(big_db) as db:
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


def test_gil_released_during_query(big_db):
    with cqldb.Database(big_db) as db:
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
