# Type stub of the cqldb package (issue 38); the docstrings in __init__.py describe each call.
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Protocol, Sequence, Union, overload
import os

COLUMNS: List[str]

class QueryError(ValueError):
    line: int      # 1-based
    column: int    # 1-based
    message: str
    expected: str
    source: str

class DatabaseError(RuntimeError): ...

class _Event(Protocol):
    def is_set(self) -> bool: ...

Row = Dict[str, Any]

class Result(Sequence[Row]):
    stats: Dict[str, Any]
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> List[Row]: ...
    def __iter__(self) -> Iterator[Row]: ...
    @property
    def ids(self) -> List[int]: ...
    def to_pandas(self) -> Any: ...  # pandas.DataFrame

class Game:
    id: int
    headers: Dict[str, str]
    file: str
    ordinal: int
    plies: int
    eco: str
    opening: str
    san: List[str]
    uci: List[str]
    comments: List[str]
    comment_before: str
    nags: List[List[int]]
    clocks: Optional[List[Optional[int]]]   # centiseconds per main-line ply
    evals: Optional[List[Dict[str, int]]]   # {"eval": centipawns} / {"mate": n} / {}
    start_fen: str
    @property
    def moves(self) -> List[str]: ...
    def fens(self) -> List[str]: ...
    def pgn(self) -> str: ...

class Database:
    def __init__(self, path: Union[str, os.PathLike], readonly: bool = ...) -> None: ...
    @property
    def path(self) -> str: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Database": ...
    def __exit__(self, *exc: Any) -> None: ...
    def query(self, text: str, *, sort: Optional[str] = ..., limit: Optional[int] = ...,
              threads: Optional[int] = ..., planner: bool = ...,
              progress: Optional[Callable[[int, int, int], Any]] = ...,
              cancel: Optional[_Event] = ..., dialect: str = ...) -> Result: ...
    def game(self, id: int) -> Game: ...
    def tree(self, fen: Optional[str] = ..., moves: Union[str, Sequence[str], None] = ...,
             query: Optional[str] = ..., *, threads: Optional[int] = ...,
             dialect: str = ...) -> Dict[str, Any]: ...
    def explain(self, text: str, *, dialect: str = ...) -> str: ...
    def info(self) -> Dict[str, Any]: ...

def is_sharded(path: Union[str, os.PathLike]) -> bool: ...

def shard(db_path: Union[str, os.PathLike], shards: int, out: Union[str, os.PathLike]) -> List[Dict[str, Any]]: ...

def import_pgn(db_path: Union[str, os.PathLike],
               files: Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]], *,
               progress: Optional[Callable[[Dict[str, Any]], Any]] = ...,
               skip_duplicates: bool = ..., threads: Optional[int] = ...,
               shard_size: Optional[int] = ...) -> Dict[str, Any]: ...
