// The JSON shape of a query's results for every front-end (the command's and the shell's
// `--format jsonl`, the coming Python module): one object per matching game, built with
// nlohmann-json. Text read from the database is repaired to valid UTF-8 (db/utf8.h) first.
// The web API's rows and figures are web/json_shape.h.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "db/game_header.h"
#include "db/game_source.h"
#include "db/record_view.h"
#include "eval/game_match.h"

namespace query {

/// One jsonl object of a matching game, keys in this order: id, file (source PGN path),
/// ordinal (1-based position in that file), white, black, event, site, date (as in the PGN,
/// e.g. "1921.??.??"), round, result, white_elo and black_elo (numbers, null when none), eco
/// and opening (strings, "" when none), game_plies (main-line length), time_control (the
/// TimeControl tag, null when none), clocks and analysis (lichess's game export shape: clocks
/// in centiseconds or null per main-line ply, analysis [{"eval":cp} or {"mate":n} or {}] per
/// ply; each only when `annotations` has one) and plies: the matched positions, a number for
/// a main-line ply (0 = the start position) and an array for a position inside a variation,
/// its ply path (eval/match_location.h: `[31,1,2]` = the first variation of the main-line
/// move from ply 31, after its 2nd move; sub-variations add pairs), in main-line order.
/// `annotations` is the game's record when it has typed annotations, else null.
nlohmann::ordered_json match_json(const db::GameHeader& header, const eval::GameMatch& match,
                                  const db::RecordView* annotations);

/// Writes one match_json line per match (ascending ids, as query::execute returns them) to
/// `out`, reading headers and records through `reader` (a db::GameReader, or a sharded
/// database's query::Store::Reader, ids global), which must hold every
/// id. Throws std::out_of_range for an id outside the snapshot.
void write_jsonl(std::ostream& out, db::GameSource& reader, const std::vector<eval::GameMatch>& matches);

/// `json` as compact text, invalid UTF-8 (which match_json never leaves) replaced by U+FFFD.
std::string json_text(const nlohmann::ordered_json& json);

}  // namespace query
