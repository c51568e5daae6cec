#!/usr/bin/env python3
"""cqldb from Python on the sample database (README "Python"; run by the test suite).

    python3 examples/python/query_sample.py sample-db
"""
import sys

import cqldb

db = cqldb.Database(sys.argv[1] if len(sys.argv) > 1 else "sample-db")
print(db.info()["games"], "games")

# A query: one dict per matching game, in id order, as `cqldb query --format jsonl`.
result = db.query("(match :player Alekhine (position :mate))", sort="-date")
print(len(result), "Alekhine games ending in mate,", "%.3f s" % result.stats["seconds"])
for row in result[:3]:
    print(row["id"], row["white"], "-", row["black"], row["result"], row["date"], "mate at ply", row["plies"][-1])

# The same as a pandas DataFrame.
frame = db.query("(match (position :promote [RBNrbn]))").to_pandas()
print(frame.groupby("result").size().to_dict())

# One game: headers, moves in SAN and UCI, a FEN per ply, the PGN.
game = db.game(result[0]["id"])
print(game.headers["Event"], game.san[:4], game.uci[:4], game.fens()[-1])

# The opening tree after 1.e4 c5, in the lichess explorer's shape.
tree = db.tree(moves="1.e4 c5")
print(tree["games"], "games:", ", ".join("%s %d" % (m["san"], m["white"] + m["draws"] + m["black"])
                                       for m in tree["moves"][:4]))

# A script that does not parse: QueryError with its line and column.
try:
    db.query("(match (position :mate)")
except cqldb.QueryError as e:
    print("error at line", e.line, "column", e.column, "-", e.message)
