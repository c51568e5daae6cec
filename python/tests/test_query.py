"""The module's answers equal the command's (issue 38): bench_query's query set on the
sample, sorting, limits, the game, the tree, explain and info."""
import json

import pytest

import cqldb
from conftest import bench_queries, cli_jsonl, run_cli


@pytest.fixture(scope="module")
def db(sample_db):
    with cqldb.Database(sample_db) as database:
        yield database


@pytest.mark.parametrize("name,script", bench_queries())
def test_bench_query_equals_cli(db, sample_db, name, script):
    result = db.query(script)
    assert list(result) == cli_jsonl(sample_db, script), name
    assert result.stats["matches"] == len(result)
    assert db.query(script, planner=False).ids == result.ids, name  # the planner only prunes


def test_sort_and_limit_equal_cli(db, sample_db):
    script = "(match (position :mate))"
    for sort in ("-date", "elo", "white", "-id"):
        assert db.query(script, sort=sort).ids == [r["id"] for r in cli_jsonl(sample_db, script, "--sort", sort)]
    assert db.query(script, limit=7).ids == [r["id"] for r in cli_jsonl(sample_db, script, "--limit", "7")]
    with pytest.raises(ValueError):
        db.query(script, sort="colour")


def test_result_shapes(db):
    result = db.query("(match :player Alekhine (position :mate))", threads=1)
    assert len(result) > 0 and result.ids == sorted(result.ids)
    row = result[0]
    assert isinstance(row["id"], int) and isinstance(row["plies"], list)
    assert {s["name"] for s in result.stats["stages"]} >= {"headers", "replay"}
    frame = result.to_pandas()
    assert list(frame["id"]) == result.ids
    assert list(frame.columns[:len(cqldb.COLUMNS)]) == cqldb.COLUMNS
    assert str(frame["white_elo"].dtype) == "Int64"


def test_variation_plies_and_annotations(db, sample_db):
    # the annotated games: matches inside variations come as ply paths, as in jsonl
    script = "(match (position :variations :check))"
    rows = list(db.query(script))
    assert rows == cli_jsonl(sample_db, script)
    assert any(isinstance(p, list) for r in rows for p in r["plies"])


def test_game_equals_export(db, sample_db):
    game = db.game(3001)
    assert game.pgn() == run_cli("export", "--db", sample_db, "--id", 3001).stdout
    assert len(game.san) == len(game.uci) == game.plies
    fens = game.fens()
    assert len(fens) == game.plies + 1 and fens[0] == game.start_fen
    assert game.headers["White"] and game.headers["Result"] in ("1-0", "0-1", "1/2-1/2", "*")
    assert len(game.comments) == game.plies and any(game.comments)
    with pytest.raises(IndexError):
        db.game(10 ** 9)


def test_tree_equals_cli(db, sample_db):
    for moves in (None, "1.e4 c5", "1.d4 Nf6 2.c4 e6"):
        args = ["tree", "--db", sample_db, "--format", "json"] + (["--moves", moves] if moves else [])
        assert db.tree(moves=moves) == json.loads(run_cli(*args).stdout)
    tree = db.tree(moves=["e4", "e5"])
    assert tree["moves"] and {"uci", "san", "white", "draws", "black"} <= set(tree["moves"][0])
    # a query narrows the games counted
    narrowed = db.tree(query="(match :player Alekhine)")
    assert 0 < narrowed["games"] < db.tree()["games"]
    with pytest.raises(ValueError):
        db.tree(moves="1.e5")


def test_explain_equals_cli(db, sample_db):
    script = "(match :player Kasparov (position :mate))"
    assert db.explain(script) == run_cli("query", "--db", sample_db, "--explain", "-e", script).stdout


def test_info(db, sample_db):
    info = db.info()
    assert info["games"] + info["rejected"] == 3100 and not info["sharded"]
    assert "games:           {:,}".format(info["games"]) in run_cli("info", "--db", sample_db).stdout
