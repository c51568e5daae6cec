"""The module after issues 36 and 40 (merged into issue 38's module): CQL 6 scripts are read
by query(), tree() and explain() (auto-detected by their `cql(` header, or named by
`dialect=`) with the command's answers, and sort= with limit= keeps the first `limit` games of
the whole sorted answer, as `cqldb query --sort --limit` does; on a sharded database too."""
import pytest

import cqldb
from conftest import cli_jsonl, run_cli

CQL6 = ["cql() mate", "cql() flipcolor {btm check}", "cql()\n// a comment\nstalemate"]
SORTS = ("-date", "elo", "white", "-id")


@pytest.fixture(scope="module")
def sharded(sample_db, tmp_path_factory):
    path = tmp_path_factory.mktemp("sharded-dialect") / "db"
    run_cli("shard", "--db", sample_db, "--shards", 3, "--out", path)
    return str(path)


def test_cql6_equals_cli(sample_db):
    with cqldb.Database(sample_db) as db:
        for script in CQL6:
            rows = list(db.query(script))
            assert rows and rows == cli_jsonl(sample_db, script), script
            assert db.query(script, dialect="cql6").ids == [r["id"] for r in rows], script
            assert db.explain(script) == run_cli("query", "--db", sample_db, "--explain", "-e", script).stdout
        # the same position as CQL-S and as CQL 6
        assert db.query("cql() mate").ids == db.query("(match (position :mate))").ids
        narrowed = db.tree(moves="1.e4", query="cql() check")
        assert 0 < narrowed["games"] < db.tree(moves="1.e4")["games"]
        with pytest.raises(cqldb.QueryError):
            db.query("cql() mate", dialect="cqls")  # CQL 6 text read as CQL-S
        with pytest.raises(cqldb.QueryError) as err:
            db.query("cql()\n  nosuch")
        assert err.value.line == 2
        with pytest.raises(ValueError):
            db.query("cql() mate", dialect="cql7")


def test_sort_with_limit_is_the_first_of_the_order(sample_db):
    script = "(match (position :mate))"
    with cqldb.Database(sample_db) as db:
        for sort in SORTS:
            whole = db.query(script, sort=sort).ids
            first = db.query(script, sort=sort, limit=3)
            assert first.ids == whole[:3], sort
            cli = cli_jsonl(sample_db, script, "--sort", sort, "--limit", "3")
            assert first.ids == [r["id"] for r in cli], sort
            assert first.stats["matches_found"] == len(whole) and first.stats["search_complete"]
            assert first.stats["summary"] == "3 of %d matches" % len(whole)


def test_sharded_sort_limit_and_cql6_equal(sample_db, sharded):
    with cqldb.Database(sample_db) as one, cqldb.Database(sharded) as many:
        for sort in SORTS:
            for script in ("(match (position :check))", "cql() mate"):
                assert many.query(script, sort=sort, limit=9).ids == one.query(script, sort=sort, limit=9).ids
        for script in CQL6:
            assert list(many.query(script)) == list(one.query(script)), script
    for sort in SORTS:  # the command: --sort with --limit over the shards, and its summary
        args = ("query", "-e", "(match (position :mate))", "--format", "ids", "--sort", sort, "--limit", "4")
        a, b = run_cli(*args, "--db", sharded), run_cli(*args, "--db", sample_db)
        assert a.stdout == b.stdout, sort
        summary = lambda r: r.stderr.splitlines()[-1].split(", ")[0]  # "4 of 76 matches" (no timing)
        assert " of " in summary(a) and summary(a) == summary(b), sort
