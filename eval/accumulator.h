// Accumulators (CQL-Position-List "Accumulator keywords", seed 004; CQL-Examples "Using
// accumulators to count passed pawns"): `:accumulate name` adds, at each position, the
// number of transformation variants of its list that match (identical transformed lists
// count once, SPEC Transformations); `:accumulate* name` keeps one counter per colour (a
// variant under a colour-swapping transformation adds to the black counter); `:sumrange name
// r` tests the counter of the position (for an `:accumulate*` name the counter of the colour
// of its own variant).
//
// Evaluation order at a position (per colour alternative): first every accumulating list is
// counted, wherever it stands (also inside :not, :or, a sequence element), each variant
// counting when its nodes match with every :sumrange taken as true and without short-cut
// between the lists (seed 004: ":accumulate inhibits short-circuiting of :and and :or");
// then the lists are evaluated as usual and :sumrange reads the finished counters, so a
// :sumrange may stand before, after or around the lists it tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cql {
struct List;
}

namespace eval {

class PositionList;
struct PosCtx;

/// The counters of one position. Nodes read them through PosCtx::accumulators.
struct Accumulators {
  std::vector<int64_t> counts;  ///< per counter index
  bool counting = false;        ///< phase 1: :sumrange counts as matching
  int64_t value(size_t i) const { return counts[i]; }
};

/// Accumulator names of a script -> counter indexes (built before the lists are compiled).
struct AccumulatorNames {
  struct Entry {
    size_t index = 0;   ///< first counter; `:accumulate*` names have two (white, black)
    bool star = false;  ///< declared by :accumulate*
  };
  std::map<std::string, Entry> names;
  size_t counters = 0;  ///< number of counters
  /// The counter of `name` for a variant whose transformation swaps colours or not; null if
  /// the name is never accumulated.
  const Entry* find(const std::string& name) const {
    auto it = names.find(name);
    return it == names.end() ? nullptr : &it->second;
  }
};

/// Phase 1 at position `c`: sets `acc.counts` to zero, then adds every matching variant of
/// each list in `lists` (the accumulating lists of one colour alternative) to the counters of
/// its :accumulate nodes. Leaves `acc.counting` false.
void accumulate(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                Accumulators& acc);

/// The accumulator names of the script whose match list is `match` (every :accumulate /
/// :accumulate* at any depth). Throws CompileError for a name used with both forms.
AccumulatorNames accumulator_names(const cql::List& match);

}  // namespace eval
