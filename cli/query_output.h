// Writing the games a query matched, in the formats of `cqldb query --format`; shared by
// the query command and the interactive shell.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "db/game_reader.h"
#include "db/game_source.h"
#include "eval/game_match.h"

namespace cli {

/// The output formats.
enum class OutputFormat {
  kIds,    ///< one game id per line
  kTable,  ///< aligned columns: id, White, Black, Elo (white/black), result, date, ECO,
           ///< event, opening, first matched ply
  kJsonl,  ///< one JSON object per line (see write_matches)
  kPgn,    ///< the games as PGN with a {MATCH} comment at each matched position
  kHtml,   ///< one HTML page: headers, moves and a board diagram of each matched position
           ///< (render/html_report.h)
};

/// The format named `name` ("ids", "table", "jsonl", "pgn", "html"); nullopt for another name.
std::optional<OutputFormat> parse_output_format(std::string_view name);

/// The accepted format names, for help and error messages: "ids, table, jsonl, pgn, html".
std::string_view output_format_names();

/// Writes `matches` (ascending ids, as query::execute returns them) to `out` in `format`,
/// reading headers and records through `reader`, whose snapshot must contain every id.
///
/// jsonl objects are query::match_json (query/result_json.h), one a line. Table cells
/// longer than their column are cut and end in "…"; a game matched by header conditions
/// alone has no matched ply ("-" in the table).
/// Throws std::out_of_range for an id outside the snapshot, db::CorruptRecord for a damaged
/// record (pgn).
/// How PGN output marks the matches: cqldb's `{MATCH}` comments (the default), or CQL 6.2's
/// for a CQL 6 script's `output FILE` (SPEC-NOTES "CQL 6 scripts: decisions", Output):
/// `{Game number N}` (N: the game's ordinal in its PGN file) opening each game and `CQL` at
/// each matched position, both joined to the game's comment at that place; `quiet` leaves
/// out the `CQL` marks, `silent` both; `matchstring "text"` writes text instead of `CQL`.
struct PgnMarks {
  bool cql6 = false;
  bool quiet = false;
  bool silent = false;
  std::string match_text = "CQL";  ///< the mark (CQL 6 `matchstring`; "": none)
};

void write_matches(std::ostream& out, OutputFormat format, db::GameSource& reader,
                   const std::vector<eval::GameMatch>& matches, const PgnMarks& marks = {});

}  // namespace cli
