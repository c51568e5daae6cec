// eval::Program: a CQL script compiled for execution (query::Query builds it from the AST;
// SPEC-NOTES "The route of a query").
//
// A Program holds one or two colour alternatives: the script as written and, with
// `match:eithercolor`, the script under the colour flip (SPEC Transformations: pieces,
// squares and White/Black roles swapped, also in the header conditions). A game matches when
// some alternative matches: its header conditions hold (HeaderFilter, answered by SQLite)
// and each of its top-level position lists matches at least one position of the game.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cql/ast.h"
#include "cql/error.h"
#include "headers/header_filter.h"

namespace cql6 {
struct Script;  // cql6/ast.h
}  // namespace cql6

namespace eval {

class PositionList;  // compiled position list (eval/node.h)
struct SequenceSpec;  // compiled :sequence / :gappedsequence (eval/sequence.h)
struct RelationSpec;  // compiled :relation (eval/relation.h)

/// A tag declared by `match:forany name D` (CQL-Tagging): it is bound in turn to each mark
/// (a piece of the start position) whose piece matches, at some position of the main line,
/// D's piece part (squares ignored; a promoted pawn keeps its mark).
struct TagSpec {
  std::string name;
  uint16_t pieces = 0;        ///< D's kinds (cql/pieces.h layout)
  uint16_t promoted = 0;      ///< kinds that must be promoted pieces
  uint16_t not_promoted = 0;  ///< kinds that must not be promoted pieces
};

/// The compile error of eval (cql/error.h).
using CompileError = cql::CompileError;

/// When a game satisfies a top-level position list (SPEC Game traversal): the number of
/// positions the list matches lies in [lo, hi]. Default: at least one; `:matchcount r` /
/// `:pretransformmatchcount r` in the list set r (CQL-Position-List "Matching count").
/// With `:repetitioncount r` / `:pretransformrepetitioncount r` (`consecutive`) the number
/// is the length of the longest run of consecutive positions of a line the list matches.
struct MatchCount {
  int64_t lo = 1;              ///< inclusive lower bound
  int64_t hi = INT64_MAX;      ///< inclusive upper bound
  bool pretransform = false;   ///< counted per transformation variant of the list; some
                               ///< variant's count must lie in the range
  bool consecutive = false;    ///< count the longest run of consecutive matching positions
  bool contains(int64_t n) const { return n >= lo && n <= hi; }
  /// True when a game in which the list never matches satisfies it (`:matchcount 0`).
  bool admits_zero() const { return contains(0); }
};

/// Which lines of a game a top-level position list searches (SPEC Game traversal).
enum class LineScope : uint8_t {
  kMainLine,        ///< default: the main line only
  kAll,             ///< `:variations`: the main line and every variation
  kVariationsOnly,  ///< `:variationsonly`: the variations only
};

/// The argument of a :cut / :exclude (eval/control.h) and the top-level list it belongs to.
struct ControlArgument {
  std::shared_ptr<const PositionList> list;
  uint8_t bits = 0;        ///< control bits fired when `list` matches
  size_t top_list = 0;     ///< index in Alternative::lists (its LineScope applies)
};

/// One colour alternative of a program.
struct Alternative {
  headers::HeaderFilter header;  ///< match-list header conditions (colour-swapped for the flip)
  /// Top-level position lists; a game matches when each satisfies its MatchCount.
  std::vector<std::shared_ptr<const PositionList>> lists;
  std::vector<MatchCount> counts;  ///< one per list, same order
  std::vector<LineScope> scopes;   ///< one per list, same order
  bool color_flipped = false;  ///< this is the eithercolor alternative
  /// Lists with :accumulate / :accumulate*, at any depth, counted at each position before
  /// the lists are evaluated (eval/accumulator.h).
  std::vector<std::shared_ptr<const PositionList>> accumulating;
  /// Arguments of :cut / :exclude at any depth, with their control bits (eval/control.h):
  /// evaluated at every position of a searched line, whatever the list around them does.
  std::vector<ControlArgument> controls;
};

/// A compiled script. Immutable after compile(); shared by the worker threads.
class Program {
 public:
  /// Compiles `script`. Throws CompileError for keywords not supported yet
  /// ("not yet supported: :kw") and for semantic errors.
  static Program compile(const cql::Script& script);
  /// Compiles a CQL 6 script (issue 36; eval/compile_cql6.cpp): one alternative whose one
  /// top-level list is the script's body, matched `matchcount` times (default at least
  /// once) on the main line, or on every line with `variations`. Throws cql6::Error.
  static Program compile_cql6(const cql6::Script& script);

  /// The colour alternatives (1, or 2 with match:eithercolor).
  const std::vector<Alternative>& alternatives() const { return alternatives_; }
  /// True if some position list needs the game's result / Elo values (game information).
  bool needs_game_info() const { return needs_game_info_; }
  /// True if some position list counts repeated positions (:threefoldrepetition ...).
  bool needs_repetition() const { return needs_repetition_; }
  /// True if some position list looks at the position after the next move (:ischeck ...).
  bool needs_lookahead() const { return needs_lookahead_; }
  /// True if some position list counts the checks given so far (:checkcount, :ischeck with
  /// a range: PosCtx::checks_given); replay skips the check test of every move otherwise.
  bool needs_check_counts() const { return needs_check_counts_; }
  /// The sequences of all lists, indexed by sequence id (payload::SequenceId of Op::kSequence).
  /// A sequence nested in another's element list has the smaller id, so computing the
  /// tables in id order meets every sequence after the ones it contains.
  const std::vector<std::shared_ptr<const SequenceSpec>>& sequences() const { return sequences_; }
  /// True if some top-level list searches variations (LineScope other than kMainLine).
  bool needs_variations() const { return needs_variations_; }
  /// True if some list has :cut, :exclude or :skip (eval/control.h).
  bool needs_control() const { return needs_control_; }
  /// Number of accumulator counters (eval/accumulator.h); 0 without :accumulate.
  size_t accumulator_counters() const { return accumulator_counters_; }
  /// True if the match list has a bare `:not`: a game matches when the rest does not.
  bool negated() const { return negated_; }
  /// True if some position list has :line / :line* (PosCtx::line_moves and start needed).
  bool needs_line_moves() const { return needs_line_moves_; }
  /// The relations of all lists, indexed by relation id (payload::RelationId of Op::kRelation).
  const std::vector<std::shared_ptr<const RelationSpec>>& relations() const { return relations_; }
  /// True if some relation searches P2 in variations (relation:variations / :variationsonly).
  bool needs_relation_variations() const { return needs_relation_variations_; }
  /// The tags of `match:forany` (at most 2), indexed by tag number (Designator::tag).
  const std::vector<TagSpec>& tags() const { return tags_; }
  /// True if games must be searched one after the other in id order on one thread: a CQL 6
  /// script with `persistent` variables (issue 37; their values carry from game to game).
  bool sequential() const { return sequential_; }
  /// True if the program reads header texts (GameInfo::text: CQL 6 `player white` as a
  /// string, `year` per position); implies needs_game_info().
  bool needs_game_text() const { return needs_game_text_; }
  /// CQL 6 `sort` (issue 37): 0 none, 1 largest value first, 2 `sort min` (smallest first);
  /// the matches are ordered by GameMatch::sort_value, equal values in id order.
  int cql6_sort() const { return cql6_sort_; }
  /// True if the CQL 6 header says `sort matchcount`: the sort value of a game is its number
  /// of matched positions (main line and variations), most first.
  bool cql6_sort_matchcount() const { return cql6_sort_matchcount_; }
  /// Every CQL 6 sort of the script in the order CQL 6.2 uses them (first written first;
  /// sorts with the same title share a key): true for `sort min`.
  const std::vector<bool>& cql6_sort_keys() const { return cql6_sort_keys_; }
  /// The first CQL 6 `sort`'s title ("sort" when it has none; empty for `sort quiet`).
  const std::string& cql6_sort_title() const { return cql6_sort_title_; }
  /// True if a CQL 6 script writes `comment` or `settag` output (GameMatch::comments, tags).
  bool cql6_output() const { return cql6_output_; }
  /// True for a CQL 6 script (compile_cql6): with `variations` every position of the game
  /// tree counts once, so a variation's branch position (its line's first position, also a
  /// position of the line it leaves) is evaluated on the variation but not counted again
  /// (CQL 6.2's behaviour; SPEC-NOTES "Random scripts against CQL 6.2, round 3 session 8").
  bool tree_positions_once() const { return tree_positions_once_; }
  /// The tag names CQL 6 `tag "Name"` filters read (GameText::tags), each once.
  const std::vector<std::string>& cql6_tag_names() const { return cql6_tag_names_; }

 private:
  /// compile_cql6 for a script using part-2 features (issue 37; eval/compile_cql6.cpp).
  static Program compile_cql6_part2(const cql6::Script& script);

  std::vector<Alternative> alternatives_;
  bool needs_game_info_ = false;
  bool needs_repetition_ = false;
  bool needs_lookahead_ = false;
  bool needs_check_counts_ = false;
  bool negated_ = false;
  bool needs_variations_ = false;
  bool needs_control_ = false;
  size_t accumulator_counters_ = 0;
  bool needs_line_moves_ = false;
  std::vector<std::shared_ptr<const SequenceSpec>> sequences_;
  std::vector<std::shared_ptr<const RelationSpec>> relations_;
  bool needs_relation_variations_ = false;
  std::vector<TagSpec> tags_;
  bool sequential_ = false;
  bool needs_game_text_ = false;
  int cql6_sort_ = 0;
  bool cql6_sort_matchcount_ = false;
  std::vector<bool> cql6_sort_keys_;
  std::string cql6_sort_title_;
  bool cql6_output_ = false;
  bool tree_positions_once_ = false;
  std::vector<std::string> cql6_tag_names_;
};

}  // namespace eval
