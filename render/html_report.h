// `cqldb query --format html`: the matching games as one self-contained HTML page, as CQL
// 6.2's HTML output: per game its headers, its moves (variations and comments included) with
// the matched positions marked, and a board diagram (render/board_svg.h) of each matched
// position.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "db/game_reader.h"
#include "db/game_source.h"
#include "eval/game_match.h"

namespace render {

/// What the report shows besides the games.
struct HtmlReportOptions {
  std::string query_text;            ///< the CQL script, shown at the top ("" = none)
  size_t max_diagrams_per_game = 32; ///< diagrams drawn per game; further matches are listed
};

/// Writes the page for `matches` (in the order given) to `out`, reading headers and records
/// through `reader`. Throws std::out_of_range for an id outside the snapshot,
/// db::CorruptRecord for a damaged record.
void write_html_report(std::ostream& out, db::GameSource& reader, const std::vector<eval::GameMatch>& matches,
                       const HtmlReportOptions& options = {});

}  // namespace render
