// The Python module's conversions from stored games and query figures to Python values
// (issue 38). Each takes C++ values read without the GIL and builds Python objects with it
// held; the shapes are those of `cqldb query --format jsonl` (cli/query_output.h) so a row
// compares equal to json.loads of the command's line.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "db/annotation_codec.h"
#include "db/game_header.h"
#include "eval/game_match.h"
#include "query/executor.h"

namespace pycqldb {

/// One matched game as read without the GIL: its header, its match and its typed
/// annotations (one per main-line ply; empty when the game has none).
struct MatchRow {
  db::GameHeader header;
  eval::GameMatch match;
  std::vector<db::PlyAnnotation> annotations;  ///< clocks and evaluations only (`rest` unset)
};

/// The row of `cqldb query --format jsonl` as a dict: id, file, ordinal, white, black,
/// event, site, date, round, result, white_elo, black_elo (int or None), eco, opening,
/// game_plies, time_control (str or None), clocks (centiseconds or None per main-line ply)
/// and analysis ({"eval": centipawns} / {"mate": n} / {} per ply) when stored, plies (an
/// int per main-line ply, 0 = start; a list ply path inside a variation).
pybind11::dict row_dict(const MatchRow& row);

/// The figures of a run as a dict: the totals of query::Stats (games_total, candidates,
/// games_replayed, positions, matches, matches_found, search_complete, seconds as float,
/// cancelled, engine_calls, cache_hits, damaged, planner_on), after_indexes and
/// after_signatures (read from the stages), summary (query::matches_text: "3 of 76
/// matches"), stages as a list of dicts {name, ran, in, out, seconds, note} (each stage's
/// figures live only there, as in query::Stats), explain (query::explain_stats).
pybind11::dict stats_dict(const query::Stats& stats);

/// The clocks (centiseconds, None for a ply without) of `annotations`, or None when no ply
/// has one.
pybind11::object clocks_list(const std::vector<db::PlyAnnotation>& annotations);

/// The evaluations ({"eval": centipawns} / {"mate": n} / {}) of `annotations`, or None when
/// no ply has one.
pybind11::object evals_list(const std::vector<db::PlyAnnotation>& annotations);

/// The ECO code and opening name the outputs show: the classified ones, else the [ECO] and
/// [Opening] tags ("" when none), as cli/query_output.cpp's table and jsonl.
std::pair<std::string, std::string> opening_of(const db::GameHeader& header);

/// `text` as a Python str, invalid UTF-8 bytes replaced by U+FFFD (as the jsonl output).
pybind11::str text(const std::string& text);

}  // namespace pycqldb
