// The opening tree (index/position_tree.h) as JSON, one shape for every front-end: `cqldb
// tree --format jsonl`, the shell's tree, the web API's GET /api/tree, the Python module and
// cqldb.dask (summed shard trees). It is the shape of lichess's opening explorer (STYLE.md;
// README "The web interface") with our fields beside theirs. Also the reading of the tree's
// position from SAN moves, which every one of those front-ends takes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "db/game_header.h"
#include "db/game_source.h"
#include "index/position_tree.h"

namespace posindex {

/// The FEN of the standard start position (the tree's position when no FEN is given).
inline constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Plays the SAN moves of `moves` ("1.e4 c5 2.Nf3", "e4 c5 Nf3", move numbers and "..."
/// skipped) on `pos`. False with `error` naming the move that does not parse ("move 'Nf9':
/// ..."); `pos` then stands after the moves before it.
bool play_san_moves(chess::Position& pos, std::string_view moves, std::string& error);

/// Reads the header of game `id` into `header`; false when there is no such game. A
/// database's GameReader::read_header, a sharded database's lookup by global id
/// (query::Store::Reader), or the names a shard's tree carried with it (cqldb.dask).
using HeaderLookup = std::function<bool(uint32_t id, db::GameHeader& header)>;

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
/// `reader` is any db::GameSource: a db::GameReader, or a sharded database's reader whose ids
/// are global (query::Store::Reader).
nlohmann::ordered_json tree_json(const Tree& tree, const chess::Position& pos, db::GameSource& reader);

/// The same, the players of the named games read through `headers` (a game it does not
/// know is named "").
nlohmann::ordered_json tree_json(const Tree& tree, const chess::Position& pos, const HeaderLookup& headers);

}  // namespace posindex
