// The opening tree on the command line and in the shell (issue 18): reading the position
// (--fen, --moves), and printing a posindex::Tree as a table. Its JSON (the shape of
// lichess's opening explorer, shared with the web API) is posindex::tree_json
// (index/tree_json.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "index/position_tree.h"

namespace db {
class GameReader;
}

namespace cli {

/// The FEN of the standard start position.
inline constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Plays the SAN moves of `moves` ("1.e4 c5 2.Nf3", "e4 c5 Nf3", move numbers and "..."
/// skipped) on `pos`. False with `error` naming the move that does not parse.
bool play_san_moves(chess::Position& pos, std::string_view moves, std::string& error);

/// The tree as a table: one row per move (SAN, games, % of games, White/draw/Black %,
/// White's score %, average Elo of the mover, performance, years, best game), then totals.
/// `reader` gives the players of the best games.
std::string format_tree_table(const posindex::Tree& tree, const chess::Position& pos, db::GameReader& reader);

}  // namespace cli
