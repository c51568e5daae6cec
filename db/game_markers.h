// Scid-style user markers on games (`cqldb mark`, the shell's `mark`; CQL-Match-List
// :hasmarker): rows of headers.sqlite's markers table (schema.h), one character each.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace db {

/// The marker characters a game may carry: Scid's game flags w (white opening), b (black
/// opening), m (middlegame), e (endgame), n (novelty), p (pawn structure), t (tactics),
/// k (kingside), q (queenside), ! (brilliancy), ? (blunder), u (user), 1-6 (custom).
inline constexpr std::string_view kGameMarkers = "wbmenptkq!?u123456";

/// Sets (or with `clear`, removes) `marker` on game `game_id` of the database in `dir`.
/// An empty `marker` with `clear` removes all of the game's markers. Throws
/// std::invalid_argument for a marker outside kGameMarkers or a game id that is not in the
/// database, db::SqliteError when SQLite fails.
void set_game_marker(const std::filesystem::path& dir, uint32_t game_id, std::string_view marker, bool clear);

/// The markers of game `game_id`, in kGameMarkers order.
std::string game_markers(const std::filesystem::path& dir, uint32_t game_id);

}  // namespace db
