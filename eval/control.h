// Controlling keywords :cut, :exclude, :skip (seed 000 / CQL-Position-List "Controlling
// keywords"). They act per line (the main line or a variation's line, SPEC-NOTES):
//  - :exclude: when it fires, the line is excluded: its matches count for nothing, and an
//    excluded main line makes the game (that colour alternative) fail. Highest priority.
//  - :skip: when it fires, no position list of the alternative counts this position.
//  - other filters: the position's matches count.
//  - :cut: when it fires, the search of the line stops after this position (the position
//    still counts: lowest priority). With `:preceding` in the :cut argument the cut wins over
//    the position: it does not count, and the search stops.
// A keyword fires when it is evaluated (left-to-right, short-circuit like any filter) and its
// argument list matches, or, without an argument, when its containing list matches. A bare
// keyword in a sequence element fires where the elements up to it match in order, whatever
// the list around the sequence does (hoist_element_controls); in a list decided over the line
// (nested count, :endmost) where that list matches in the per-position pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace cql {
struct List;
struct KeywordItem;
}  // namespace cql

namespace eval {

struct PosCtx;
struct SequenceSpec;     // eval/sequence.h
struct ControlArgument;  // eval/program.h

/// The control effects bits (Node Op::kControl value, PositionList::control).
namespace control {
constexpr uint8_t kCut = 1;           ///< stop searching the line after this position
constexpr uint8_t kCutPreceding = 2;  ///< stop, and this position does not count
constexpr uint8_t kExclude = 4;       ///< exclude the line
constexpr uint8_t kSkip = 8;          ///< this position does not count
}  // namespace control

/// What the control keywords evaluated at one position asked for. Nodes write it through
/// PosCtx::control while `armed` (GameMatcher arms it for the per-position pass only).
struct ControlFlags {
  uint8_t bits = 0;
  bool armed = false;
  /// Records `bits` if armed.
  void fire(uint8_t b) {
    if (armed) bits |= b;
  }
};

/// The counters of GameMatcher the control keywords may undo (slot = alternative x list).
struct CountRefs {
  std::vector<uint32_t>& list_count;
  std::vector<uint32_t>& list_run;
  std::vector<std::vector<uint32_t>>& variant_count;
  std::vector<std::vector<uint32_t>>& variant_run;
  std::vector<uint8_t>& ply_hit;  ///< per alternative x main-line ply
  size_t lists_per_alternative;
  size_t plies;  ///< main-line plies + 1 (row length of ply_hit)
  /// The variation line being evaluated: per alternative x ply of the line (0 = its branch
  /// position), some list matched there; `variation_plies` = its row length.
  std::vector<uint8_t>& variation_hit;
  size_t variation_plies = 0;
};

/// Per-game state of the control keywords for GameMatcher: which alternatives stopped
/// searching the current line, which are excluded, and the counts to restore.
class ControlState {
 public:
  ControlFlags flags;  ///< PosCtx::control points here

  /// A new evaluation of the game's lists (once per game, once per tag binding).
  void start_game(size_t alternatives);
  /// A new line starts (main line or variation): nothing is stopped; remembers `counts` so
  /// that an excluded variation can be undone.
  void start_line(const CountRefs& counts);
  /// True if alternative `a` no longer searches the current line (:cut, :exclude).
  bool stopped(size_t a) const { return stopped_[a] != 0; }
  /// True if alternative `a`'s main line was excluded: it cannot match.
  bool excluded(size_t a) const { return excluded_[a] != 0; }
  /// Before evaluating alternative `a`'s lists at a position: saves its counts, arms flags.
  void begin_position(size_t a, const CountRefs& counts);
  /// After: applies what fired (priority :exclude > :skip / :cut with :preceding > the
  /// position's matches > :cut) to alternative `a`'s counts, then disarms.
  void end_position(size_t a, const PosCtx& at, CountRefs& counts);

 private:
  void restore_position(size_t a, CountRefs& counts) const;

  std::vector<uint8_t> stopped_, excluded_;  // per alternative
  // counts of the alternative being evaluated, before this position
  std::vector<uint32_t> saved_count_, saved_run_;
  std::vector<std::vector<uint32_t>> saved_variant_count_, saved_variant_run_;
  // counts of every slot when the line started (variations only)
  std::vector<uint32_t> line_count_;
  std::vector<std::vector<uint32_t>> line_variant_count_;
};

/// Compile check for a list decided over the line before the per-position pass (a sequence
/// element, a list with a nested counting keyword or :endmost; `owner` is that keyword). A
/// bare :cut / :exclude / :skip may stand in `list` itself (a sequence element's control is
/// hoisted: hoist_element_controls(); a line-table list fires when its wrapping list matches
/// in the per-position pass) or in an element of a sequence nested in it (checked there);
/// deeper, its list is only evaluated over the line, where nothing fires: CompileError.
void check_line_controls(const cql::List& list, const cql::KeywordItem& owner);

/// True if a bare :exclude / :skip is an item of an element list of a sequence keyword
/// somewhere in `list` (Program::compile: such a top-level list asks nothing of the game). A
/// bare :cut does not count: it never exempts its list (SPEC "Game traversal").
bool bare_control_in_sequence(const cql::List& list);

/// Bare control keywords in sequence elements (seed 000 `:gappedsequence ((position <A>)
/// (position :exclude <B>))`: ":exclude acts only after <A> was satisfied"). For every element
/// i of `spec` with control bits, registers in `sequences` a line table (SequenceSpec kinds
/// kSequenceEnd, kGappedEnd) that is true at ply q when elements 0..i-1 matched before q
/// (:sequence: at q-i..q-1; :gappedsequence: at increasing plies < q) and element i matches
/// at q (:match / :matchconsecutive: element i matches at q), and appends a ControlArgument
/// reading it to `controls` (evaluated at every position, like a :cut / :exclude argument).
/// `controls` null: CompileError at `item` (a context without control keywords).
void hoist_element_controls(const SequenceSpec& spec, const cql::KeywordItem& item,
                            std::vector<std::shared_ptr<const SequenceSpec>>& sequences,
                            std::vector<ControlArgument>* controls);

}  // namespace eval
