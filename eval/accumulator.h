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
// :sumrange may stand before, after or around the lists it tests. When a sequence element or
// a list decided over the line reads a counter, GameMatcher counts every ply of the line
// first (add_accumulation); each colour alternative has counters of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eval/transform.h"

namespace cql {
struct List;
}

namespace eval {

class PositionList;
struct PosCtx;
struct SequenceSpec;  // eval/sequence.h
struct Alternative;   // eval/program.h

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
  /// The same names with every index raised by `offset` (the counters of the second colour
  /// alternative of match:eithercolor follow those of the first).
  AccumulatorNames shifted(size_t offset) const;
};

/// Phase 1 at position `c`: sets `acc.counts` to zero, then adds every matching variant of
/// each list in `lists` (the accumulating lists of one colour alternative) to the counters of
/// its :accumulate nodes. Leaves `acc.counting` false.
void accumulate(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                Accumulators& acc);

/// Phase 1 without clearing: adds the matching variants of `lists` at `c` to `acc.counts`
/// (GameMatcher's per-ply counters, read by :sumrange in sequence elements and line tables).
void add_accumulation(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                      Accumulators& acc);

/// True if some node of `list` (at any depth, sequence elements included) is a :sumrange.
bool reads_counters(const PositionList& list);
/// True if some node of `list` (at any depth) reads a line table (sequence, nested count).
bool reads_line_tables(const PositionList& list);

/// True if some line table or sequence element of `sequences` reads an accumulator: then
/// GameMatcher counts the accumulators of every ply before deciding the line tables.
bool sequences_read_counters(const std::vector<std::shared_ptr<const SequenceSpec>>& sequences);

/// Throws CompileError (at the first :sumrange of `match`) when a :sumrange is read in a
/// sequence element or line table while an accumulating list itself contains a sequence or
/// line table (the counters of a ply would depend on tables not decided yet).
void check_line_counters(const std::vector<std::shared_ptr<const SequenceSpec>>& sequences,
                         const std::vector<Alternative>& alternatives, const cql::List& match);

/// `:reset name` (CQL-Position-List position:reset, seed 000 "Zurücksetzen", CQL 3.GX): the
/// transformations of a list with :reset are grouped by the element of its LAST-written
/// transformation keyword (tripled pawns: `:shifthorizontal`, one group per file); group g
/// holds `x then g` for every x of the other keywords' composed set. Every group has
/// counters of its own for each reset name (two for :accumulate*), so phase 1 counts the
/// group's variants there (identical variants count once per group) and a :sumrange of the
/// name in the list reads its own group's count (and colour). The list matches when some
/// variant does. A list without :reset has one group, compose(keywords), and no override.
class ResetPlan {
 public:
  /// Plans `list` (its transformation keywords `keywords`, in written order). New counters
  /// are taken from `counters` (raised). Throws CompileError for a reset name the list does
  /// not accumulate itself.
  ResetPlan(const cql::List& list, std::span<const TransformKeyword> keywords, const AccumulatorNames& names,
            size_t& counters);
  /// Every transformation of the list, group after group.
  const std::vector<Transform>& transforms() const { return transforms_; }
  /// The counter `name` uses in the variant of transforms()[i] (`swap`: that variant swaps
  /// colours); nullopt when `name` is not reset by the list (use the name's own counter).
  std::optional<size_t> counter(const std::string& name, size_t i, bool swap) const;

 private:
  struct Reset {
    std::string name;
    size_t base = 0;   ///< first counter of group 0
    size_t width = 1;  ///< counters per group (2 for :accumulate*)
  };
  std::vector<Transform> transforms_;
  std::vector<size_t> group_;  ///< group of transforms_[i]
  std::vector<Reset> resets_;
};

/// Checks the :reset items of a script (match list `match`): a name is reset by one list
/// only, and every :accumulate / :accumulate* / :sumrange of a reset name is an item of that
/// list itself (its count exists per transformation group only). Throws CompileError.
void check_resets(const cql::List& match);

/// The accumulator names of the script whose match list is `match` (every :accumulate /
/// :accumulate* at any depth). Throws CompileError for a name used with both forms.
AccumulatorNames accumulator_names(const cql::List& match);

}  // namespace eval
