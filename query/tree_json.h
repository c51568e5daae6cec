// The opening tree's position and JSON (issue 18), shared by `cqldb tree`, the shell's
// `tree` and the Python module: reading the position (--fen, --moves) and writing a
// posindex::Tree as JSON in the shape of lichess's opening explorer (STYLE.md), with our
// fields beside theirs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "db/game_header.h"
#include "index/position_tree.h"

namespace db {
class GameSource;
}

namespace query {

/// The FEN of the standard start position.
inline constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Plays the SAN moves of `moves` ("1.e4 c5 2.Nf3", "e4 c5 Nf3", move numbers and "..."
/// skipped) on `pos`. False with `error` naming the move that does not parse.
bool play_san_moves(chess::Position& pos, std::string_view moves, std::string& error);

/// Reads the header of game `id` into the header; false when there is no such game. A
/// database's GameReader::read_header, or a sharded database's lookup by global id.
using HeaderLookup = std::function<bool(uint32_t id, db::GameHeader& header)>;

/// The tree as one JSON object (lichess explorer fields white, draws, black, moves[{uci, san,
/// white, draws, black, averageRating, performance, game}], topGames; ours beside them:
/// fen, games, ended, score, firstYear, lastYear). `headers` gives the players of the best
/// games.
std::string format_tree_json(const posindex::Tree& tree, const chess::Position& pos, const HeaderLookup& headers);

/// The same, with the players read through `reader`.
std::string format_tree_json(const posindex::Tree& tree, const chess::Position& pos, db::GameSource& reader);

}  // namespace query
