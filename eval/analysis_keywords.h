// The analysis keywords as nodes: `:evaluation` and `:moveevaluation` (CQL-Position-List
// "position:evaluation", "position:moveevaluation"; seed 000 "Stellungs- und
// Zugbeurteilung") over the worker's analysis::AnalysisContext (analysis/session.h) that
// PosCtx::analysis points to, and `:endgameevaluation(*)` over analysis/tablebase.h.
//
// Scores are compared in centipawns: a range written in pawn units (`>=2.5`) is compiled to
// whole centipawns; mates are +-(kMateCentipawns - plies to mate) (analysis/engine.h).
#pragma once

#include <cstdint>
#include <vector>

#include "cql/ast.h"
#include "eval/node.h"

namespace eval {

/// The engine settings of one engine node, packed into Node::value:
/// bits 0..31 limit (plies or ms), bit 32 movetime, bit 33 absolute, bit 34 mate,
/// bit 35 colours swapped (`absolute` then means Black's view).
struct EngineQuery {
  cql::EngineLimit mode = cql::EngineLimit::Depth;
  int64_t limit = 0;  ///< plies (depth) or milliseconds (movetime), 1..1e9
  cql::ScoreView view = cql::ScoreView::SideToMove;
  bool mate = false;            ///< `:evaluation ... mate`
  bool colors_swapped = false;  ///< compiled under a colour-swapping transformation

  int64_t pack() const;
  static EngineQuery unpack(int64_t value);
};

/// Node of `:evaluation` / `:moveevaluation` (`k`) with its compiled designators `d`
/// (movers, targets); `swap` = compiled under a colour-swapping transformation.
Node engine_node(const cql::KeywordItem& item, cql::Keyword k, std::vector<Designator> d, bool swap);

/// Op::kEvaluation: the engine's score of the position (view per EngineQuery) lies in
/// Node::range (centipawns), or with `mate` a mate was found (depth d: within d plies).
bool match_evaluation(const Node& n, const PosCtx& c);
/// Op::kMoveEvaluation: the next move's piece matches d[0] on its from square and its
/// destination (content before the move, as :moveto) matches d[1], and score(after the move)
/// - score(before it), both from the view of the side to move after the move (sidetomove)
/// or of White (absolute), lies in Node::range (centipawns).
bool match_move_evaluation(const Node& n, const PosCtx& c);
/// True if evaluating `n` may run the engine (an engine op, or one inside its sub-lists):
/// compile() orders such nodes last in their conjunction so cheap conditions prune first.
bool uses_engine(const Node& n);

/// Op::kEndgameEvaluation (built by compile.cpp; probes analysis/tablebase.h):
/// payload::TablebaseProbe (outcome, already colour-swapped; the `*` form; the total piece
/// counts the tables hold, checked before probing), `n.range` = distance to mate in plies.
/// The `*` form is only examined at the first position of the line with the position's
/// material (the game's start, or a position reached by a capture or a promotion:
/// PosCtx::material_new).
bool endgame_evaluation(const Node& n, const PosCtx& c);

}  // namespace eval
