// The opening tree on the command line and in the shell (issue 18) as a table; reading the
// position and the JSON shape are in query/tree_json.h (shared with the Python module).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "index/position_tree.h"
#include "query/tree_json.h"

namespace db {
class GameSource;
}

namespace cli {

using query::format_tree_json;
using query::kStartFen;
using query::play_san_moves;

/// The tree as a table: one row per move (SAN, games, % of games, White/draw/Black %,
/// White's score %, average Elo of the mover, performance, years, best game), then totals.
/// `reader` gives the players of the best games.
std::string format_tree_table(const posindex::Tree& tree, const chess::Position& pos, db::GameSource& reader);

}  // namespace cli
