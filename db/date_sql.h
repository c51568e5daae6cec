// The PGN Date of a game row as SQL (headers.sqlite, schema.h): games.date when stored,
// else rebuilt from games.year/month/day with "????" / "??" for unknown parts, the same
// formula as db::canonical_pgn_date() (game_header.h). One text for every statement that
// reads a game's date, with the games table aliased `g`.
#pragma once

namespace db {

/// SQL expression of the PGN Date ("YYYY.MM.DD", unknown parts '?') of games row `g`.
inline constexpr const char* kPgnDateSql =
    "COALESCE(g.date, "
    "CASE WHEN g.year IS NULL THEN '\?\?\?\?' ELSE printf('%04d', g.year) END || '.' || "
    "CASE WHEN g.month IS NULL THEN '\?\?' ELSE printf('%02d', g.month) END || '.' || "
    "CASE WHEN g.day IS NULL THEN '\?\?' ELSE printf('%02d', g.day) END)";

}  // namespace db
