// GameMatcher: replays one game's main line and evaluates a Program's position lists at
// every position (SPEC Game traversal: the start position counts; main line only unless a
// list has :variations / :variationsonly, then also each variation as a line of its own,
// eval/variation_walker.h). Sequences are decided per line first (eval/sequence.h).
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <vector>

#include "chess/position.h"
#include "chess/position_key.h"
#include "db/record_view.h"
#include "eval/accumulator.h"
#include "eval/control.h"
#include "eval/match_location.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/relation.h"
#include "eval/tagging.h"
#include "eval/variation_walker.h"

namespace eval {

/// Evaluates a Program on games, one at a time. One per worker thread (keeps scratch
/// buffers); the Program must outlive it.
class GameMatcher {
 public:
  explicit GameMatcher(const Program& program);
  /// The worker's engine context for :evaluation / :moveevaluation (PosCtx::analysis);
  /// not owned, may be null when the program has no engine keywords.
  void set_analysis(analysis::AnalysisContext* analysis) { analysis_ = analysis; }
  /// Main-line plies to evaluate in the next match() calls: allowed[p] != 0 (size = plies +
  /// 1; moves are still played everywhere). Null, or a size that does not fit the game =
  /// every ply. Only honoured for programs without sequences, relations or tags; the planner
  /// (planner/ply_windows.h) gives windows only where skipping is sound.
  void set_ply_windows(const std::vector<uint8_t>* allowed) { ply_windows_ = allowed; }

  /// Replays `record` and evaluates the position lists of the alternatives whose bit is set
  /// in `alternatives` (bit i = Program::alternatives()[i], i.e. the game passed that
  /// alternative's header filter). `info` may be null unless Program::needs_game_info().
  /// Returns true when some alternative matches: each of its top-level position lists
  /// matches a number of positions its MatchCount admits (default: at least one). `plies`
  /// receives the matched plies (ascending, union
  /// over the matching alternatives' lists); `positions` is increased by the positions
  /// evaluated. Throws db::CorruptRecord when a stored move is not legal on its board.
  bool match(const db::RecordView& record, unsigned alternatives, const GameInfo* info,
             std::vector<uint32_t>& plies, uint64_t& positions);

  /// The matched positions inside variations of the last match() that returned true
  /// (ascending ply paths, eval/match_location.h; union over the matching alternatives'
  /// lists, like `plies`); empty when only the main line matched or the game did not match.
  const std::vector<VariationPly>& variation_plies() const { return variation_out_; }

 private:
  /// What one match() call carries through its steps: the game, the alternatives asked for,
  /// the boards and context of the replay, and the layout of the counts. Lives on match()'s
  /// stack (c.pos and c.start point into it); the counts themselves are GameMatcher's
  /// scratch vectors, which CountRefs names.
  struct GameState {
    GameState(GameMatcher& m, const db::RecordView& record, unsigned alternatives, uint64_t& positions);
    const db::RecordView& record;
    unsigned alternatives;  // bit i = alternative i passed its header filter
    uint64_t& positions;    // the caller's count of positions evaluated
    uint32_t last_ply;      // main-line length in plies
    size_t max_lists;       // lists of the longest alternative: the row length of the count slots
    bool control;           // the program has :cut / :exclude / :skip (eval/control.h)
    CountRefs refs;         // the counts as the control keywords see them
    chess::Position pos;    // the board of the main-line replay
    chess::Position start;  // the start position, kept for variations and :line* (else unset)
    PosCtx c;               // the context; its game-constant fields are set by begin_game()
    size_t row() const { return size_t(last_ply) + 1; }  // ply_hit_'s row length
  };

  /// Sets up `g` for a new game: the start position (throws db::CorruptRecord for a bad
  /// stored FEN), the context's game-constant fields, controls and accumulators, and the counts.
  void begin_game(GameState& g, const GameInfo* info);

  // Counting (alternative x list slots, eval/match_count.h)
  /// A new line (main line or variation): runs of :repetitioncount do not continue into it.
  void start_line(GameState& g);
  /// The counts of one evaluation of the lists (once per game; once per binding with tags).
  void reset_counts(GameState& g);
  /// Evaluates the alternatives' top-level lists at the position `at` and counts their hits
  /// (not when `count` is false: the position was already counted, see evaluate_tree_node).
  void evaluate(GameState& g, const PosCtx& at, bool count = true);
  /// Program::tree_positions_once (CQL 6): evaluates line[i] of a variation at its game-tree
  /// node tree_node_ (a ply path, eval/match_location.h; one element: a main-line position),
  /// counting and reporting a node's hit once however many lines reach it (line[0] of each).
  void evaluate_tree_node(GameState& g, const PosCtx& at, size_t i);
  /// :sumrange in line tables: counts the accumulators of every ply of `line` (all
  /// alternatives, each on counters of its own) and points the contexts at them.
  void count_line(GameState& g, std::span<PosCtx> line);
  /// True if the counts satisfy some alternative; appends its matched plies to `out` and its
  /// variation hits to variation_out_.
  bool tally(GameState& g, std::vector<uint32_t>& out);

  // The lines of a game
  /// relation:variations: the boards of every variation position (P2 candidates).
  void collect_relation_variation_boards(GameState& g);
  /// The main line of a program without sequences, relations or tags, evaluated as it is
  /// replayed (the plain single-list path, ply windows, the :fen horizon).
  void match_main_line(GameState& g);
  /// The main line of a program with sequences, relations or tags: kept whole, decided, then
  /// evaluated (per binding of the tags). Returns true when tags are used and some binding
  /// matched (its plies appended to `plies`).
  bool match_kept_line(GameState& g, std::vector<uint32_t>& plies);
  /// Decides the sequences of the kept main line and evaluates its plies (all, or those
  /// where `only` is non-zero).
  void decide_kept_line(GameState& g, const std::vector<uint8_t>* only);
  /// The tag pre-pass over the kept line (eval/tagging.h relaxed_tag_lists): fills
  /// relaxed_hit_ and returns false when no binding of the tags can match.
  bool tag_prepass();
  /// Each variation as a line of its own (eval/variation_walker.h), its hits kept as ply paths
  /// in variation_found_.
  void match_variations(GameState& g);

  /// Replays the main line of `record` from `pos`, filling `c` (whose game-constant fields
  /// are set) for each position and calling `on_position(c)` at every ply, start included.
  /// Throws db::CorruptRecord for an illegal stored move.
  template <class OnPosition>
  void replay(const db::RecordView& record, chess::Position& pos, PosCtx& c, OnPosition&& on_position);

  /// True if the counts in `slot` (alternative x list) satisfy `rule`.
  bool satisfied(const MatchCount& rule, size_t slot) const;

  const Program& program_;
  ControlState control_;        // :cut / :exclude / :skip (eval/control.h)
  Accumulators accumulators_;   // :accumulate counters of the position (eval/accumulator.h)
  // :sumrange in line tables (eval/accumulator.h sequences_read_counters): the counters of
  // every ply of the line, counted before the line tables are decided
  bool line_counters_ = false;
  std::vector<Accumulators> line_accumulators_;  // by ply of the line
  std::vector<PosCtx> variation_line_;           // a variation's line with its counters
  analysis::AnalysisContext* analysis_ = nullptr;  // PosCtx::analysis of every position
  const std::vector<uint8_t>* ply_windows_ = nullptr;  // see set_ply_windows()
  /// The :fen targets of the first list when every variant has one (see the constructor);
  /// empty = no horizon.
  std::vector<chess::Frontier> fen_horizon_;
  /// True if some position of fen_horizon_ may still occur after `pos`.
  bool fen_reachable(const chess::Position& pos) const;
  std::vector<chess::Key> keys_;      // position keys by ply (repetition counting)
  std::vector<uint32_t> list_count_;  // per alternative x list: positions it matched
  std::vector<std::vector<uint32_t>> variant_count_;  // same index, per variant (pretransform lists)
  // Lists with :repetitioncount count their longest run instead (list_count_ / variant_count_);
  // the current run of the line being evaluated, same indices:
  std::vector<uint32_t> list_run_;
  std::vector<std::vector<uint32_t>> variant_run_;
  std::vector<uint8_t> ply_hit_;      // per alternative x ply: some list matched here
  // Programs with sequences (eval/sequence.h) keep the whole line:
  std::vector<chess::Position> line_positions_;  // position by ply
  std::vector<PosCtx> line_;                     // context by ply (pos -> line_positions_)
  std::vector<chess::Move> main_moves_;          // :line: the main line's moves by ply
  std::vector<std::vector<uint8_t>> sequence_hits_;  // per sequence id x ply: a match starts
  std::vector<uint8_t> sequence_scratch_;
  // Programs with :variations / :variationsonly (eval/variation_walker.h):
  VariationWalker walker_;
  std::vector<std::vector<uint8_t>> variation_sequence_hits_;  // per sequence id x ply of
                                                               // the variation line
  std::vector<uint8_t> variation_hit_;  // per alternative x ply of the variation line: a hit
  VariationPly tree_node_;                // evaluate_tree_node: the node being evaluated
  std::set<VariationPly> counted_nodes_;  // CQL 6: variation nodes counted (this game)
  std::vector<std::pair<size_t, VariationPly>> variation_found_;  // alternative, hit (this game)
  std::vector<VariationPly> variation_out_;                      // see variation_plies()
  // Programs with :relation (eval/relation.h):
  RelationLine relation_line_;            // the main line's relations
  RelationLine variation_relation_line_;  // the variation line's relations
  std::vector<RelationBoard> relation_variation_boards_;  // relation:variations: the P2s
  // Programs with tags (eval/tagging.h):
  std::vector<std::array<uint8_t, MarkBoard::kMaxMarks>> marks_by_ply_;  // mark -> square
  std::vector<uint32_t> tag_qualifying_;  // per tag: marks it may be bound to
  // The tag pre-pass (eval/tagging.h relaxed_tag_lists; empty: none): per ply of the line,
  // some relaxed list matched there
  std::vector<std::shared_ptr<const PositionList>> relaxed_tag_lists_;
  std::vector<uint8_t> relaxed_hit_;
};

}  // namespace eval
