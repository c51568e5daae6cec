"""Queries and trees of a sharded cqldb database on a Dask cluster (README "Many machines").

    from distributed import Client
    import cqldb.dask
    client = Client("scheduler:8786")            # or Client(LocalCluster(...))
    result = cqldb.dask.query(client, "/data/lichess-sharded", "(match (position :mate))")
    for row in result:                           # rows in global id order
        ...
    frame = result.to_dask_dataframe()          # one partition per shard, in id order
    tree = cqldb.dask.tree(client, "/data/lichess-sharded", moves="1.e4 c5")

One task per shard: the worker opens its shard (a path it can read: a shared filesystem, or
`shard_paths` mapping a shard's manifest name to the path on the workers) once per process,
runs the query there with the route of `cqldb query`, and returns its rows with global ids.
The tasks are deterministic, so a task whose worker dies is run again elsewhere (Dask's rule)
and the answer stays exact: each shard's rows come from exactly one successful task. Progress
and cancellation are Dask's: `distributed.progress(result.futures)`, `result.cancel()`; a
`cancel` distributed.Event stops running tasks too.
"""

from __future__ import annotations

import json
import operator
import os
import threading
import time
import uuid
from itertools import repeat
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Union

import cqldb

__all__ = ["query", "tree", "shards", "DaskResult"]


def shards(sharded_path: Union[str, os.PathLike]) -> List[Dict[str, Any]]:
    """The shards of a sharded database as its manifest lists them: [{path, first_id,
    games}] in id order (path relative to the sharded directory)."""
    with open(os.path.join(os.fspath(sharded_path), "shards.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != "cqldb-sharded":
        raise cqldb.DatabaseError("%s: not a cqldb sharded manifest" % sharded_path)
    return manifest["shards"]


# ---- on the workers -----------------------------------------------------------------------

_open_lock = threading.Lock()
_open: Dict[str, "cqldb.Database"] = {}


def _database(path: str) -> "cqldb.Database":
    """The shard at `path`, opened once per worker process (a directory may be open once per
    process) and shared by the worker's threads."""
    with _open_lock:
        db = _open.get(path)
        if db is None:
            db = cqldb.Database(path)
            _open[path] = db
        return db


class _EventPoll:
    """is_set() of a distributed.Event, asked at most every 0.5 s (each ask is a round trip to
    the scheduler)."""

    def __init__(self, name: str):
        from distributed import Event

        self._event = Event(name)
        self._last = 0.0
        self._set = False

    def is_set(self) -> bool:
        now = time.monotonic()
        if not self._set and now - self._last >= 0.5:
            self._last = now
            self._set = self._event.is_set()
        return self._set


def _query_shard(path: str, first_id: int, text: str, limit: int, threads: int, planner: bool,
                 cancel_event: Optional[str], delay: float = 0.0, dialect: str = "auto") -> Dict[str, Any]:
    """One shard's part of a query: rows with global ids, the figures, the task's times.
    `delay` (seconds slept first) lets the tests kill a worker while its task runs."""
    start = time.perf_counter()
    if delay:
        time.sleep(delay)
    db = _database(path)
    cancel = _EventPoll(cancel_event) if cancel_event else None
    result = db.query(text, limit=limit or None, threads=threads or None, planner=planner, cancel=cancel,
                      dialect=dialect)
    offset = first_id - 1
    columns = _encode(list(result), offset)
    stats = dict(result.stats)
    stats["damaged"] = [i + offset for i in stats["damaged"]]
    return {"columns": columns, "stats": stats, "task_seconds": time.perf_counter() - start}


# ---- a shard's rows in columns ------------------------------------------------------------
#
# A task's rows travel as columns, not as dicts: a list of 17-key dicts pickles and unpickles
# value by value (one shard's 8,048 :check rows: 1.8 MB, 0.24 s to pickle on the worker and
# 0.14 s to unpickle on the client at load 15; as columns 433 KB). Integers travel as int64 arrays, text dictionary-encoded (its
# distinct values and an int32 code per row: files, events, dates, results and openings
# repeat), so the client makes each distinct string once; the columns are taken apart and the
# dicts made again in C (itemgetter, zip, numpy's take, dict), without a Python loop per row.

_EXTRAS = ("clocks", "analysis")
_INTS = ("id", "ordinal", "game_plies")
_TEXTS = ("file", "white", "black", "event", "site", "date", "round", "result", "eco", "opening", "time_control")


def _encode(rows: List[Dict[str, Any]], offset: int) -> Dict[str, Any]:
    """The rows (dicts of cqldb.Result) as {"names": keys in the rows' order, "columns": one
    per key}, ids made global by adding `offset`: an int64 array for id, ordinal and
    game_plies, (distinct values, int32 codes; -1 for None) for text, a tuple otherwise
    (Elos, plies; clocks and analysis when some row has them, None in the rows without).
    Needs numpy and pandas on the workers (pandas.factorize)."""
    import numpy as np
    import pandas as pd

    names = list(cqldb.COLUMNS)  # "id" first, "plies" last
    extras = [name for name in _EXTRAS if any(map(operator.contains, rows, repeat(name)))]
    columns: List[Any] = list(zip(*map(operator.itemgetter(*names), rows))) if rows else [() for _ in names]
    for i, name in enumerate(names):
        if name in _INTS:
            columns[i] = np.fromiter(columns[i], np.int64, len(rows))
        elif name in _TEXTS:
            codes, values = pd.factorize(np.array(columns[i], dtype=object))  # None: code -1
            columns[i] = (values.tolist(), codes.astype(np.int32))
    columns[0] += offset
    for name in extras:
        columns.insert(-1, tuple(row.get(name) for row in rows))
    return {"names": names[:-1] + extras + names[-1:], "columns": columns}


def _decode(part: Dict[str, Any]) -> Dict[str, Sequence[Any]]:
    """_encode's columns as {key: list or tuple of the values}, in the rows' key order."""
    import numpy as np

    out: Dict[str, Sequence[Any]] = {}
    for name, column in zip(part["names"], part["columns"]):
        if name in _INTS:
            column = column.tolist()
        elif name in _TEXTS:
            values, codes = column
            table = np.empty(len(values) + 1, dtype=object)  # the last for code -1: None
            table[:-1] = values
            column = table[codes].tolist()
        out[name] = column
    return out


def _dicts(columns: Mapping[str, Sequence[Any]]) -> Iterator[Dict[str, Any]]:
    """The rows of decoded columns (keys in the rows' order) as cqldb.Result's dicts: same
    keys in the same order, no clocks or analysis key where the value is None."""
    rows = map(dict, map(zip, repeat(list(columns)), zip(*columns.values())))  # in C, no Python loop
    extras = [name for name in _EXTRAS if name in columns]
    if not extras:
        return rows
    return map(_drop_none(extras), rows)


def _drop_none(extras: List[str]):
    """A function deleting from a row dict the keys of `extras` whose value is None."""
    def drop(row: Dict[str, Any]) -> Dict[str, Any]:
        for name in extras:
            if row[name] is None:
                del row[name]
        return row
    return drop


def _frame(columns: Mapping[str, Sequence[Any]], extras: bool):
    """Decoded columns as cqldb.Result.to_pandas() makes the frame from the dicts: COLUMNS,
    then clocks and analysis when `extras` and some row has them (NaN in the rows without),
    id, ordinal and game_plies int64, Elos Int64, the rest object. Each column is made with its
    dtype, without pandas inferring it value by value."""
    import numpy as np
    import pandas as pd

    if not columns["id"]:
        frame = cqldb.Result([], {}).to_pandas()
        return frame if extras else frame[list(cqldb.COLUMNS)]
    n = len(columns["id"])

    def objects(values: Sequence[Any]):
        return pd.Series(list(values), dtype=object)  # lists stay one value each

    data: Dict[str, Any] = {}
    for name in cqldb.COLUMNS:
        values = columns[name]
        if name in _INTS:
            data[name] = np.fromiter(values, np.int64, n)
        elif name in ("white_elo", "black_elo"):
            data[name] = pd.array(list(values), dtype="Int64")
        else:
            data[name] = objects(values)
    if extras:
        for name in _EXTRAS:
            if name in columns:
                data[name] = objects([float("nan") if v is None else v for v in columns[name]])
    return pd.DataFrame(data, copy=False)


def _tree_shard(path: str, first_id: int, fen: Optional[str], moves: Optional[str],
                text: Optional[str], threads: int, dialect: str = "auto") -> bytes:
    """One shard's opening tree with its sums and global ids (merged by _cqldb.merge_trees)."""
    return _database(path)._db.tree_part(fen, moves, text, threads, first_id, dialect)


# ---- on the client ------------------------------------------------------------------------

def _shard_path(sharded_path: str, shard: Mapping[str, Any], shard_paths: Optional[Mapping[str, str]]) -> str:
    if shard_paths and shard["path"] in shard_paths:
        return shard_paths[shard["path"]]
    return os.path.join(sharded_path, shard["path"])


class DaskResult:
    """The answer of cqldb.dask.query: the shards' futures, read in global id order.

    Iterating yields the rows (dicts as cqldb.Result's) shard by shard as each shard's task
    is done, in global id order; len(), ids, stats and to_pandas() wait for every task. The
    tasks return their rows in columns (_encode); dicts are made on the client only for
    iteration and rows(), to_pandas() builds its frame from the columns.
    `futures` are the Dask futures (distributed.progress(result.futures) shows progress);
    cancel() cancels them and sets the cancel event running tasks poll.
    """

    def __init__(self, client, futures, limit: int, cancel_event: str):
        self.client = client
        self.futures = futures
        self._limit = limit
        self._cancel_event = cancel_event
        self._parts: Optional[List[Dict[str, Any]]] = None
        self._merged: Optional[Dict[str, Sequence[Any]]] = None
        self._rows: Optional[List[Dict[str, Any]]] = None
        self.submitted = time.perf_counter()
        self.gathered: Optional[float] = None

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        if self._rows is not None:
            yield from self.rows()
            return
        count = 0
        for future in self.futures:
            for row in _dicts(_decode(future.result()["columns"])):
                if self._limit and count >= self._limit:
                    return
                count += 1
                yield row

    def _gather(self) -> List[Dict[str, Any]]:
        if self._parts is None:
            self._parts = self.client.gather(self.futures)
            self.gathered = time.perf_counter()
        return self._parts

    def _columns(self) -> Dict[str, Sequence[Any]]:
        """The shards' columns joined in global id order (keys in the rows' order; clocks and
        analysis None in a shard without them), cut at the limit."""
        if self._merged is None:
            parts = [_decode(p["columns"]) for p in self._gather()]
            names = list(cqldb.COLUMNS[:-1])
            names += [name for name in _EXTRAS if any(name in part for part in parts)] + ["plies"]
            merged: Dict[str, Sequence[Any]] = {}
            for name in names:
                column: List[Any] = []
                for part in parts:
                    column += part[name] if name in part else [None] * len(part["id"])
                merged[name] = column[:self._limit] if self._limit else column
            self._merged = merged
        return self._merged

    def rows(self) -> List[Dict[str, Any]]:
        """Every row, in global id order (the first `limit` with a limit); the same list on
        every call."""
        if self._rows is None:
            self._rows = list(_dicts(self._columns()))
        return self._rows

    def __len__(self) -> int:
        return len(self._columns()["id"])

    @property
    def ids(self) -> List[int]:
        return list(self._columns()["id"])

    @property
    def stats(self) -> Dict[str, Any]:
        """The shards' figures summed (seconds: the longest shard's), with per_shard: each
        task's figures and task_seconds (time inside the task, opening the shard included)."""
        parts = self._gather()
        total: Dict[str, Any] = {}
        for key in ("games_total", "candidates", "games_replayed", "positions", "matches", "matches_found"):
            total[key] = sum(p["stats"][key] for p in parts)
        total["matches"] = len(self)
        total["seconds"] = max((p["stats"]["seconds"] for p in parts), default=0.0)
        total["cancelled"] = any(p["stats"]["cancelled"] for p in parts)
        total["search_complete"] = all(p["stats"]["search_complete"] for p in parts)
        total["damaged"] = [i for p in parts for i in p["stats"]["damaged"]]
        total["per_shard"] = [dict(p["stats"], task_seconds=p["task_seconds"]) for p in parts]
        return total

    def to_pandas(self):
        """The rows as one pandas.DataFrame (as cqldb.Result.to_pandas), made from the columns
        without per-row dicts."""
        return _frame(self._columns(), extras=True)

    def to_dask_dataframe(self):
        """A dask.dataframe with one partition per shard in global id order (the limit, if
        any, is applied to the whole only by to_pandas and iteration)."""
        import dask.dataframe as dd
        from dask import delayed

        meta = cqldb.Result([], {}).to_pandas()
        parts = [delayed(_rows_frame)(f) for f in self.futures]
        return dd.from_delayed(parts, meta=meta, verify_meta=False)

    def cancel(self) -> None:
        """Stops the query: cancels the futures and sets the event running tasks poll."""
        from distributed import Event

        Event(self._cancel_event, client=self.client).set()
        self.client.cancel(self.futures)


def _rows_frame(part: Dict[str, Any]):
    """One shard's partition of to_dask_dataframe (COLUMNS), made on the worker from its
    columns."""
    return _frame(_decode(part["columns"]), extras=False)


def query(client, sharded_path: Union[str, os.PathLike], text: str, *, limit: Optional[int] = None,
          planner: bool = True, threads: int = 1, shard_paths: Optional[Mapping[str, str]] = None,
          retries: int = 2, dialect: str = "auto", _task_delay: float = 0.0) -> DaskResult:
    """Runs the CQL script `text` over the sharded database at `sharded_path` with one Dask
    task per shard; returns a DaskResult (rows in global id order, equal to
    cqldb.Database(sharded_path).query(text)).

    limit: the first `limit` matches by global id (each shard stops after `limit`).
    threads: search threads per task (1 suits workers of one thread each).
    dialect: "auto" (a text starting with `cql(` is CQL 6), "cqls" or "cql6", as
    cqldb.Database.query.
    shard_paths: {manifest shard name: path on the workers} when the workers do not read the
    shards under `sharded_path`.
    retries: extra attempts of a task whose worker failed, beside Dask's own rescheduling of
    the tasks of a worker that died.
    """
    sharded_path = os.fspath(sharded_path)
    cancel_event = "cqldb-cancel-" + uuid.uuid4().hex
    _check(text, dialect)  # a script that does not compile fails here, before any task
    futures = []
    for i, shard in enumerate(shards(sharded_path)):
        futures.append(client.submit(_query_shard, _shard_path(sharded_path, shard, shard_paths), shard["first_id"],
                                     text, limit or 0, threads, planner, cancel_event, _task_delay, dialect, pure=False,
                                     retries=retries, key="cqldb-query-%d-%s" % (i, cancel_event[-12:])))
    return DaskResult(client, futures, limit or 0, cancel_event)


def _check(text: str, dialect: str = "auto") -> None:
    """Raises QueryError for a script that does not compile (on the client, before any task)."""
    cqldb._cqldb.check_query(text, dialect)


def tree(client, sharded_path: Union[str, os.PathLike], fen: Optional[str] = None,
         moves: Union[str, Sequence[str], None] = None, query: Optional[str] = None, *, threads: int = 1,
         shard_paths: Optional[Mapping[str, str]] = None, retries: int = 2, dialect: str = "auto") -> Dict[str, Any]:
    """The opening tree of a position over the sharded database, one Dask task per shard, the
    shards' trees summed: equal to cqldb.Database(sharded_path).tree(fen, moves, query)."""
    sharded_path = os.fspath(sharded_path)
    if moves is not None and not isinstance(moves, str):
        moves = " ".join(moves)
    if query is not None:
        _check(query, dialect)
    futures = [client.submit(_tree_shard, _shard_path(sharded_path, shard, shard_paths), shard["first_id"], fen,
                             moves, query, threads, dialect, pure=False, retries=retries)
               for shard in shards(sharded_path)]
    parts = client.gather(futures)
    return json.loads(cqldb._cqldb.merge_trees(parts, fen, moves))
