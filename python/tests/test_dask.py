"""cqldb.dask on a LocalCluster of 4 one-thread workers over 4 shards of a players-344k slice
(examples/sample/players-3000.pgn.zst, 3,000 games) (issue 38): every bench query and the
tree of 5 positions equal the single database's, and a worker killed mid-query still gives
the exact answer."""
import os
import signal
import time

import distributed
import pytest

import cqldb
import cqldb.dask
from conftest import SAMPLE, bench_queries, run_cli

POSITIONS = [None, "1.e4", "1.e4 c5", "1.d4 Nf6 2.c4", "1.e4 e5 2.Nf3 Nc6 3.Bb5"]
SLOW = "(match (position :maxswapevaluation A a >=3 :btm))"


@pytest.fixture(scope="module")
def dbs(tmp_path_factory):
    base = tmp_path_factory.mktemp("dask")
    single = base / "single"
    run_cli("import", "--db", single, SAMPLE / "players-3000.pgn.zst")
    run_cli("shard", "--db", single, "--shards", 4, "--out", base / "sharded")
    return str(single), str(base / "sharded")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_bench_queries_and_trees_equal(dbs, client):
    single, sharded = dbs
    with cqldb.Database(single) as db:
        for name, script in bench_queries():
            result = cqldb.dask.query(client, sharded, script)
            assert result.rows() == list(db.query(script)), name
            assert list(result) == result.rows()
        assert cqldb.dask.query(client, sharded, "(match (position :check))", limit=25).ids == \
            db.query("(match (position :check))", limit=25).ids
        for moves in POSITIONS:
            assert cqldb.dask.tree(client, sharded, moves=moves) == db.tree(moves=moves), moves
        frame = cqldb.dask.query(client, sharded, "(match (position :mate))").to_dask_dataframe().compute()
        assert list(frame["id"]) == db.query("(match (position :mate))").ids


def test_frames_equal_the_single_databases(dbs, client):
    """The tasks return columns: to_pandas() and the dask dataframe have the columns, dtypes
    and values of cqldb.Result.to_pandas() (Elos Int64), with and without a limit or rows."""
    import pandas.testing

    single, sharded = dbs
    with cqldb.Database(single) as db:
        for script, limit in (("(match (position :check))", None), ("(match (position :check))", 2500),
                              ("(match (position :mate))", None), ("(match :player Nobody_Xyz (position :mate))", None)):
            expected = db.query(script, limit=limit).to_pandas()
            result = cqldb.dask.query(client, sharded, script, limit=limit)
            pandas.testing.assert_frame_equal(result.to_pandas(), expected)
            assert len(result) == len(expected) and result.ids == list(expected["id"])
            if limit is None:
                frame = result.to_dask_dataframe().compute().reset_index(drop=True)
                some = len(expected) > 0  # an empty dask frame is the meta's: object columns
                pandas.testing.assert_frame_equal(frame, expected[list(cqldb.COLUMNS)], check_dtype=some,
                                                  check_index_type=some)


def test_query_error_on_the_client(dbs, client):
    with pytest.raises(cqldb.QueryError):
        cqldb.dask.query(client, dbs[1], "(match (position :nosuch))")


def test_killed_worker_gives_the_exact_answer(dbs, client):
    single, sharded = dbs
    with cqldb.Database(single) as db:
        expected = list(db.query(SLOW, planner=False))
    # each task sleeps 2 s before its query, so that a worker dies while its task runs
    result = cqldb.dask.query(client, sharded, SLOW, planner=False, _task_delay=2.0)
    victim = None
    deadline = time.monotonic() + 30
    while victim is None and time.monotonic() < deadline:
        victim = next((w for w, keys in client.processing().items() if keys), None)
        time.sleep(0.05)
    assert victim is not None
    time.sleep(0.5)
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)  # the nanny starts another worker; the scheduler reschedules
    assert result.rows() == expected
    assert len(result.stats["per_shard"]) == 4
    # the scheduler saw the killed worker's task fail once (and ran it again elsewhere)
    keys = {f.key for f in result.futures}
    suspicious = client.run_on_scheduler(
        lambda dask_scheduler: {k: ts.suspicious for k, ts in dask_scheduler.tasks.items() if k in keys})
    assert max(suspicious.values()) >= 1, suspicious
