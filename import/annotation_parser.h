// Recognising clock and evaluation commands in PGN comments at import (issue 23):
// `[%clk H:MM:SS(.t)]`, `[%emt H:MM:SS(.t)]`, `[%eval x.xx]`, `[%eval #n]`, in any order,
// with other text or commands (`[%csl ...]`, `[%cal ...]`) before or after them.
#pragma once

#include <string>
#include <string_view>

#include "db/annotation_codec.h"

namespace import {

/// What the import keeps of comments (cqldb import --no-clocks / --no-evals).
struct AnnotationFilter {
  bool clocks = true;  ///< keep [%clk] and [%emt]
  bool evals = true;   ///< keep [%eval]
};

/// What became of a comment read by read_ply_annotation().
enum class CommentOutcome {
  kTyped,     ///< stored as the typed values in `out` (with its other text in out.rest)
  kText,      ///< kept as text: `text` (or, after the filter removed commands, `kept`)
  kDropped,   ///< nothing left to store (only dropped commands)
};

/// Counts of the values read from one comment.
struct CommentCounts {
  uint32_t clocks = 0;          ///< [%clk] / [%emt] kept as typed values
  uint32_t evals = 0;           ///< [%eval] kept as typed values
  uint32_t dropped_clocks = 0;  ///< [%clk] / [%emt] removed by the filter
  uint32_t dropped_evals = 0;   ///< [%eval] removed by the filter
};

/// Reads the comment `text` (trimmed, as the PGN parser hands it over) after a main-line
/// move. Returns kTyped and fills `out` when the comment holds a clock, emt or evaluation
/// and append_annotation_text(out) gives back the same words (so nothing is lost; `out.rest`
/// then points into `text`); a comment that cannot be rebuilt word for word (e.g. `0:2:58`,
/// `+0.17`, two clocks, text on both sides of the commands) stays text. The filter removes
/// commands first: kText then stores `kept` (when `typed_allowed` is false, e.g. in a
/// variation, only this is done).
CommentOutcome read_ply_annotation(std::string_view text, const AnnotationFilter& filter,
                                   bool typed_allowed, db::PlyAnnotation& out,
                                   std::string& kept, CommentCounts& counts);

/// Parses a clock `H:MM:SS` or `H:MM:SS.t` into tenths of a second; `with_tenths` tells which
/// spelling it was. False unless the text is exactly the canonical spelling (append_clock).
bool parse_clock(std::string_view text, uint32_t& tenths, bool& with_tenths);
/// Parses an evaluation (`0.17`, `-1.50`, `#-3`, also `-1.5` / `2`: `short_form`). False
/// unless the text is exactly what append_evaluation writes for the value.
bool parse_evaluation(std::string_view text, db::Evaluation& eval, bool& short_form);

}  // namespace import
