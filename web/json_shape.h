// The JSON shapes of the web API (issue 19; README "The web interface"): a game header row,
// a whole game with its moves, the figures of a run, a located error. nlohmann::json values,
// built here only, so every route answers in the same shape.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/game_header.h"
#include "eval/game_match.h"
#include "query/executor.h"
#include "render/game_walk.h"

namespace web {

/// A result row: id, white, black, white_elo, black_elo (null when none), result, date,
/// event, site, round, eco, opening, game_plies, plies (matched main-line plies) and
/// variation_plies (matched positions inside variations as "31.1.2" ply paths).
nlohmann::json row_json(const db::GameHeader& header, const eval::GameMatch& match);

/// A game: header fields as row_json plus tags (the other PGN tags), start_fen, fens (FEN
/// after each main-line ply, fens[0] = start), and moves: the main line as an array of
/// moves {san, uci, fen, from, to (squares "e2"), path ("31.1.2"), ply (main line only),
/// white, number, nags, comment, variations: [[moves]...]}, comment_before.
nlohmann::json game_json(const db::GameHeader& header, const render::GameWalk& walk);

/// The figures of a run: count, seconds, games, candidates, positions, cancelled, damaged,
/// stages [{name, ran, in, out, seconds, note}] and explain (query::explain_stats text).
nlohmann::json stats_json(const query::Stats& stats);

/// An error: {"error": message} plus line, column and expected when given (line > 0).
nlohmann::json error_json(const std::string& message, uint32_t line = 0, uint32_t column = 0,
                          const std::string& expected = {});

/// The name of square `sq` ("e4"), "" for SQ_NONE.
std::string square_name(chess::Square sq);

}  // namespace web
