// The opening tree (index/position_tree.h) as JSON, one shape for every front-end: `cqldb
// tree --format jsonl`, the shell's tree, the web API's GET /api/tree and the coming Python
// module. It is the shape of lichess's opening explorer (STYLE.md; README "The web
// interface") with our fields beside theirs.
#pragma once

#include <nlohmann/json.hpp>

#include "chess/position.h"
#include "db/game_reader.h"
#include "index/position_tree.h"

namespace posindex {

/// The tree of position `pos` as one object, keys in this order: fen, then the counts of
/// every game reaching it (white, draws, black: games won by White, drawn, won by Black;
/// games; averageRating: average Elo of the side to move, 0 when none; performance, 0 when
/// none; score: White's score in percent with one decimal, null when no game has a result;
/// firstYear, lastYear: null when no year is known), ended (games whose main line ends
/// here), moves [{uci, san, the same counts, game: the highest-rated game of the move as a
/// topGames entry, or null}] and topGames [{id, winner ("white", "black" or null for a
/// draw), year (null when unknown), white {name, rating}, black {name, rating}: rating null
/// when none}]. Lichess's fields are white, draws, black, moves[{uci, san, white, draws,
/// black, averageRating, game}] and topGames; names are read through `reader` and repaired to
/// valid UTF-8 (db/utf8.h).
nlohmann::ordered_json tree_json(const Tree& tree, const chess::Position& pos, db::GameReader& reader);

}  // namespace posindex
