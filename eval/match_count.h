// Per-transformation counting for :pretransformmatchcount (CQL-Position-List "Matching
// count keywords"): the list is satisfied when some transformation variant of it, counted
// on its own, matches a number of positions inside the range.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/node.h"

namespace eval {

/// Adds 1 to `counts[v]` for every variant v of `list` whose conjunction matches in `c`
/// (`counts` has list.variants.size() entries). A list with a bare `:not` has one count,
/// counts[0], of the positions the whole list matches. Returns true if the list matches `c`.
bool count_variant_matches(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& counts);

/// The consecutive form for :pretransformrepetitioncount: for every variant v of `list`,
/// extends `runs[v]` (the current run of consecutive positions v matched) by 1 if v matches
/// in `c`, else resets it to 0, and raises `longest[v]` to it. Both vectors have one entry
/// per count slot as in count_variant_matches. Returns true if the list matches `c`.
bool track_variant_runs(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& runs,
                        std::vector<uint32_t>& longest);

}  // namespace eval
