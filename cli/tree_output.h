// The opening tree on the command line and in the shell (issue 18) as a table. Reading the
// position (--fen, --moves: posindex::play_san_moves, kStartFen) and the tree's JSON (the
// shape of lichess's opening explorer, shared with the web API and the Python module:
// posindex::tree_json) are in index/tree_json.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "db/game_source.h"
#include "index/position_tree.h"
#include "index/tree_json.h"

namespace cli {

using posindex::kStartFen;
using posindex::play_san_moves;

/// The tree as a table: one row per move (SAN, games, % of games, White/draw/Black %,
/// White's score %, average Elo of the mover, performance, years, best game), then totals.
/// `reader` gives the players of the best games (a db::GameReader, or a sharded database's
/// query::Store::Reader, ids global).
std::string format_tree_table(const posindex::Tree& tree, const chess::Position& pos, db::GameSource& reader);

}  // namespace cli
