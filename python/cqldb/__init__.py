"""cqldb from Python: query a chess game database with CQL (README "Python").

    import cqldb
    db = cqldb.Database("sample-db")
    result = db.query("(match :player Alekhine (position :mate))", sort="-date", limit=10)
    for row in result:                  # one dict per matching game, as `--format jsonl`
        print(row["id"], row["white"], row["black"], row["plies"])
    df = result.to_pandas()             # a pandas.DataFrame, one row per game
    game = db.game(result[0]["id"])     # headers, .pgn(), .san, .uci, .fens(), clocks, evals
    tree = db.tree(moves="1.e4 c5")     # the opening tree in lichess explorer's shape

The module calls the route of the `cqldb` command (query::Query, query::execute, the
importer), never the command itself: answers equal the command's. Queries and imports release
the GIL; Ctrl-C stops them (KeyboardInterrupt). A path may be a sharded database (a directory
of shards made by `cqldb shard`): ids are then global and answers equal the unsharded
database's; `cqldb.dask` spreads its shards over a Dask cluster.
"""

from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _cqldb
from ._cqldb import DatabaseError, QueryError

__all__ = ["Database", "Result", "Game", "import_pgn", "shard", "is_sharded", "QueryError", "DatabaseError"]

#: The columns of Result.to_pandas(), in order (the keys of `cqldb query --format jsonl`).
COLUMNS = ["id", "file", "ordinal", "white", "black", "event", "site", "date", "round", "result",
           "white_elo", "black_elo", "eco", "opening", "game_plies", "time_control", "plies"]


def is_sharded(path: Union[str, _os.PathLike]) -> bool:
    """True when `path` is a sharded database (a directory with a shards.json manifest)."""
    return _cqldb.is_sharded(_os.fspath(path))


def shard(db_path: Union[str, _os.PathLike], shards: int, out: Union[str, _os.PathLike]) -> List[Dict[str, Any]]:
    """Splits the database at `db_path` into `shards` shards of equal id ranges under the new
    directory `out` (`cqldb shard --db DB_PATH --shards K --out OUT`); returns the manifest's
    entries [{path, first_id, games}]. `db_path` must not be open in this process for writing."""
    return _cqldb.shard(_os.fspath(db_path), shards, _os.fspath(out))


class Result(Sequence[Dict[str, Any]]):
    """The games a query matched, in ascending id order (or the order of `sort`).

    Each item is a dict with the keys of `cqldb query --format jsonl`: id (int, global in a
    sharded database), file (the source PGN path), ordinal (1-based position in that file),
    white, black, event, site, date (as in the PGN, "1921.??.??"), round, result ("1-0",
    "0-1", "1/2-1/2", "*"), white_elo and black_elo (int or None), eco and opening (str, ""
    when none), game_plies (main-line length in plies), time_control (str or None), plies
    (the matched positions: an int per main-line ply, 0 = the start position; a list ply path
    such as [31, 1, 2] inside a variation), and, for games with typed annotations, clocks
    (centiseconds left per main-line ply, None where absent) and analysis ({"eval": centipawns}
    or {"mate": n} or {} per ply).

    `stats` holds the figures of the run: games_total, candidates, games_replayed, positions,
    matches (in the answer), matches_found (before the limit cut) and search_complete,
    summary ("3 of 76 matches", as the command's), seconds (wall time, float), cancelled,
    damaged (ids skipped), after_indexes and after_signatures, stages (a list of {name, ran,
    in, out, seconds, note}: each stage's figures) and explain (the text of
    `--explain-analyze`).
    """

    def __init__(self, rows: List[Dict[str, Any]], stats: Dict[str, Any]):
        self._rows = rows
        self.stats: Dict[str, Any] = stats

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # type: ignore[override]
        return self._rows[index]

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self._rows)

    def __repr__(self) -> str:
        return "<cqldb.Result: %d games, %.3f s>" % (len(self._rows), self.stats.get("seconds", 0.0))

    @property
    def ids(self) -> List[int]:
        """The matched game ids, in the result's order."""
        return [row["id"] for row in self._rows]

    def to_pandas(self):
        """The rows as a pandas.DataFrame (columns COLUMNS, plus clocks and analysis when some
        game has them), index 0..n-1 in the result's order; Elos are nullable integers
        (pandas "Int64")."""
        import pandas as pd

        columns = list(COLUMNS)
        for extra in ("clocks", "analysis"):
            if any(extra in row for row in self._rows):
                columns.append(extra)
        frame = pd.DataFrame.from_records(self._rows, columns=columns)
        for name in ("white_elo", "black_elo"):
            frame[name] = frame[name].astype("Int64")
        return frame


class Game:
    """One stored game (Database.game).

    headers: the PGN tags as a dict (Event, Site, Date, Round, White, Black, Result, then the
    others in file order); id; file and ordinal (where it was imported from); plies (main-line
    length); eco and opening (the classification); san and uci: the main-line moves (one per
    ply, "Nf3" / "g1f3", castling in UCI as the king's two-square move, "--" / "0000" for a null
    move); comments: the comment after each main-line move ("" when none), comment_before the
    one before the first move; nags: the NAG numbers after each move; clocks: centiseconds left
    after each ply (None where absent) or None when the game has none; evals: {"eval":
    centipawns} / {"mate": n} / {} per ply, or None.
    """

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.id: int = data["id"]
        self.headers: Dict[str, str] = data["headers"]
        self.file: str = data["file"]
        self.ordinal: int = data["ordinal"]
        self.plies: int = data["plies"]
        self.eco: str = data["eco"]
        self.opening: str = data["opening"]
        self.san: List[str] = data["san"]
        self.uci: List[str] = data["uci"]
        self.comments: List[str] = data["comments"]
        self.comment_before: str = data["comment_before"]
        self.nags: List[List[int]] = data["nags"]
        self.clocks: Optional[List[Optional[int]]] = data["clocks"]
        self.evals: Optional[List[Dict[str, int]]] = data["evals"]
        self.start_fen: str = data["start_fen"]

    @property
    def moves(self) -> List[str]:
        """The main-line moves in SAN (the same list as `san`)."""
        return self.san

    def fens(self) -> List[str]:
        """The FEN of each main-line position: fens()[k] after k plies, fens()[0] the start."""
        return list(self._data["fens"])

    def pgn(self) -> str:
        """The game as PGN, with its variations, comments and NAGs (`cqldb export --id`)."""
        return self._data["pgn"]

    def __repr__(self) -> str:
        return "<cqldb.Game %d: %s - %s %s>" % (self.id, self.headers.get("White", "?"),
                                                self.headers.get("Black", "?"), self.headers.get("Result", "*"))


class Database:
    """A cqldb database directory, or a sharded database (a directory of shards).

    Database(path, readonly=True) opens an existing database (DatabaseError when `path` holds
    none); readonly=False creates it when missing. A directory may be open once per process
    at a time (an LMDB rule): close() it (or use `with`) before cqldb.import_pgn writes to it.
    The methods may be called from several threads; each query runs on `threads` cores.
    """

    def __init__(self, path: Union[str, _os.PathLike], readonly: bool = True):
        self._db = _cqldb.Database(_os.fspath(path), readonly)

    @property
    def path(self) -> str:
        """The directory as given."""
        return self._db.path

    def close(self) -> None:
        """Closes the database; further calls raise DatabaseError."""
        self._db.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def query(self, text: str, *, sort: Optional[str] = None, limit: Optional[int] = None,
              threads: Optional[int] = None, planner: bool = True,
              progress: Optional[Callable[[int, int, int], Any]] = None, cancel: Any = None,
              dialect: str = "auto") -> Result:
        """Runs the CQL script `text` (as `cqldb query -e`) and returns a Result.

        text: CQL-S (CQL 1.0 with its extensions) or a CQL 6 script; a text starting with CQL
        6's header `cql(` is read as CQL 6 (dialect="auto", as `--dialect auto`); dialect
        "cqls" or "cql6" names the language.
        sort: "date", "elo", "white", "black", "event", "result", "eco" or "id", a leading "-"
        reverses (as `--sort`; with `limit` the first `limit` games of that order).
        limit: keep this many matches (None = all): the first of the sort order, or without a
        sort the lowest ids (the search then stops once it has them).
        threads: search threads (None = all cores).
        planner: False replays every game (`--no-planner`); the answer is the same.
        progress: called about every 100 ms as progress(games_searched, games_to_search,
        matches) while the replay runs (from the calling thread, the GIL held).
        cancel: an object with is_set() (threading.Event) polled with progress: once set,
        the query stops and the games found so far are returned (stats["cancelled"] True).
        Ctrl-C raises KeyboardInterrupt within about 100 ms.
        Raises QueryError (with .line, .column) for a script that does not parse or compile,
        DatabaseError for a storage error.
        """
        rows, stats = self._db.query(text, sort, limit or 0, threads or 0, planner, progress, cancel, "query", dialect)
        return Result(rows, stats)

    def game(self, id: int) -> Game:
        """The game `id` (1-based; global in a sharded database). IndexError when none."""
        return Game(self._db.game(id))

    def tree(self, fen: Optional[str] = None, moves: Union[str, Sequence[str], None] = None,
             query: Optional[str] = None, *, threads: Optional[int] = None,
             dialect: str = "auto") -> Dict[str, Any]:
        """The opening tree of a position, as `cqldb tree --format json` prints it.

        fen: the position (default the standard start); moves: SAN moves played from it
        ("1.e4 c5 2.Nf3" or a list); query: a CQL script whose matching games alone are
        counted (CQL-S or CQL 6, as query()'s `dialect`). The dict has lichess's explorer fields (white, draws, black, moves: [{uci,
        san, white, draws, black, averageRating, performance, game}], topGames) and ours
        (fen, games, ended, score: White's score in percent, firstYear, lastYear). Needs the
        position index (DatabaseError otherwise); ValueError for a bad FEN or move.
        """
        if moves is not None and not isinstance(moves, str):
            moves = " ".join(moves)
        return _json.loads(self._db.tree(fen, moves, query, threads or 0, dialect))

    def explain(self, text: str, *, dialect: str = "auto") -> str:
        """The plan of `text` (header SQL and its bound values, signature conditions) and the
        estimates, without running it: the text of `cqldb query --explain` (a sharded
        database's estimates per shard)."""
        return self._db.explain(text, dialect)

    def info(self) -> Dict[str, Any]:
        """What `cqldb info` shows: games, rejected, warnings, files, games_bytes and
        headers_bytes (bytes on disk), bytes_per_game, format versions, games with clocks and
        with evaluations, and for a sharded database its shards [{path, first_id, games}]."""
        return self._db.info()

    def __repr__(self) -> str:
        return "<cqldb.Database %r>" % self.path


def import_pgn(db_path: Union[str, _os.PathLike], files: Union[str, _os.PathLike, Iterable[Union[str, _os.PathLike]]],
               *, progress: Optional[Callable[[Dict[str, Any]], Any]] = None, skip_duplicates: bool = False,
               threads: Optional[int] = None, shard_size: Optional[int] = None) -> Dict[str, Any]:
    """Imports PGN files (plain, .gz or .zst; "-" = standard input) into the database at
    `db_path`, creating it when missing, as `cqldb import` does.

    progress: called about every 100 ms with a dict {file, games_read, imported, rejected,
    file_bytes_done, file_bytes_total (0 when unknown), seconds}; an exception it raises
    stops the import (what was read before is committed) and is raised again.
    skip_duplicates: skip games equal to a stored one (`--skip-duplicates`).
    shard_size: make `db_path` a sharded database (or append to one) whose shards hold this
    many games (`--shard-size`); importing into a sharded directory needs no size again.
    Returns the summary: games_read, imported, rejected, warnings, skipped_duplicates, plies,
    first_id, last_id, seconds, interrupted, reasons {reason: count}, first_rejections.
    Raises DatabaseError when a file cannot be read or the database is open in this process.
    """
    if isinstance(files, (str, _os.PathLike)):
        files = [files]
    return _cqldb.import_pgn(_os.fspath(db_path), [_os.fspath(f) for f in files], progress,
                             skip_duplicates, threads or 0, shard_size or 0)
