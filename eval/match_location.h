// Where a query matched inside a variation (SPEC-NOTES "Variations", issue 14): a ply path
// from the main line down to the position.
#pragma once

#include <cstdint>
#include <vector>

namespace eval {

/// A matched position inside a variation, as a ply path `[p0, v0, p1, v1, ..., pk]` (odd
/// length, at least 3):
///  - p0: the main-line ply the variation leaves the main line at (the position before the
///    main-line move it replaces; 0 = the start position);
///  - v0: the variation's number among the alternatives there (1 = the first variation
///    written after that main-line move, 2 = the second, ...; 0 would be the main line);
///  - p1: the ply inside that variation (0 = its branch position, the same board as p0 but
///    searched as part of the variation; n = after its n-th move);
///  - further (v, p) pairs descend into a sub-variation that leaves the variation at the
///    ply before them, numbered the same way.
/// E.g. `[31, 1, 2]`: the first variation of the main-line move from ply 31, after its 2nd
/// move. std::vector's lexicographic order keeps the variations of one branch together; a
/// plain vector so that db/pgn_writer.h takes the paths without depending on eval/.
using VariationPly = std::vector<uint32_t>;

}  // namespace eval
