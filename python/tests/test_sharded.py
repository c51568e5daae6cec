"""Sharded databases (issue 38): `cqldb shard` and `cqldb import --shard-size` make a
directory of shards whose answers, by the command and by the module, equal the unsharded
database's (ids global)."""
import json

import pytest

import cqldb
from conftest import SAMPLE_FILES, bench_queries, cli_jsonl, run_cli

POSITIONS = [None, "1.e4", "1.e4 c5", "1.d4 Nf6 2.c4", "1.e4 e5 2.Nf3 Nc6 3.Bb5"]


@pytest.fixture(scope="module")
def sharded(sample_db, tmp_path_factory):
    path = tmp_path_factory.mktemp("sharded") / "db"
    out = run_cli("shard", "--db", sample_db, "--shards", 3, "--out", path)
    assert out.stdout.count("games)") == 3
    return str(path)


def games_of(path):
    with cqldb.Database(path) as db:
        return db.info()["games"]


def test_manifest(sample_db, sharded):
    manifest = json.load(open(sharded + "/shards.json"))
    total = games_of(sample_db)
    per = (total + 2) // 3
    assert [s["first_id"] for s in manifest["shards"]] == [1, per + 1, 2 * per + 1]
    assert [s["games"] for s in manifest["shards"]] == [per, per, total - 2 * per]
    assert cqldb.is_sharded(sharded)


def test_module_answers_equal(sample_db, sharded):
    with cqldb.Database(sample_db) as one, cqldb.Database(sharded) as many:
        for name, script in bench_queries():
            assert list(many.query(script)) == list(one.query(script)), name
        for sort in ("-date", "elo", "white", "-id"):
            assert many.query("(match (position :check))", sort=sort, limit=50).ids == \
                one.query("(match (position :check))", sort=sort, limit=50).ids
        for moves in POSITIONS:
            assert many.tree(moves=moves) == one.tree(moves=moves), moves
        assert many.tree(moves="1.e4", query="(match :player Alekhine)") == \
            one.tree(moves="1.e4", query="(match :player Alekhine)")
        assert many.game(2500).pgn() == one.game(2500).pgn()
        assert many.info()["games"] == one.info()["games"] and len(many.info()["shards"]) == 3


def test_cli_answers_equal(sample_db, sharded):
    for script in ("(match (position :mate))", "(match :player Kasparov)", "(match (position :variations :check))"):
        assert cli_jsonl(sharded, script) == cli_jsonl(sample_db, script)
        for fmt in ("table", "pgn", "ids"):
            args = ("query", "-e", script, "--format", fmt, "--quiet", "--sort", "-elo", "--limit", "20")
            assert run_cli(*args[:1], "--db", sharded, *args[1:]).stdout == \
                run_cli(*args[:1], "--db", sample_db, *args[1:]).stdout
    for moves in POSITIONS[1:]:
        for fmt in ("json", "table"):
            assert run_cli("tree", "--db", sharded, "--moves", moves, "--format", fmt).stdout == \
                run_cli("tree", "--db", sample_db, "--moves", moves, "--format", fmt).stdout
    assert run_cli("export", "--db", sharded).stdout == run_cli("export", "--db", sample_db).stdout
    assert run_cli("export", "--db", sharded, "--from", 1000, "--to", 2100).stdout == \
        run_cli("export", "--db", sample_db, "--from", 1000, "--to", 2100).stdout
    info = run_cli("info", "--db", sharded).stdout
    assert "games:           {:,}".format(games_of(sample_db)) in info and "shards:          3" in info
    check = run_cli("check", "--db", sharded)
    assert check.stdout.count("no damage found") == 3 and "manifest consistent" in check.stdout


def test_import_shard_size(sample_db, tmp_path):
    path = tmp_path / "imported"
    run_cli("import", "--db", path, "--shard-size", 1200, *SAMPLE_FILES[:2])
    manifest = json.load(open(path / "shards.json"))
    first = sum(s["games"] for s in manifest["shards"])
    assert [s["games"] for s in manifest["shards"]] == [1200, 1200, first - 2400]
    run_cli("import", "--db", path, *SAMPLE_FILES[2:])  # appends to the last shard
    manifest = json.load(open(path / "shards.json"))
    assert [s["games"] for s in manifest["shards"]] == [1200, 1200, games_of(sample_db) - 2400]
    for script in ("(match (position :mate))", "(match (position :variations :check))", "(match (position :stalemate))"):
        assert cli_jsonl(path, script) == cli_jsonl(sample_db, script)
