#include "eval/analysis_keywords.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "analysis/session.h"
#include "analysis/tablebase.h"
#include "chess/movegen.h"
#include "eval/program.h"

namespace eval {

using analysis::AnalysisContext;
using analysis::AnalysisSession;
using analysis::EngineScore;
using analysis::centipawns;
namespace tablebase = analysis::tablebase;

namespace {

/// Whole centipawns of a pawn-unit bound: the smallest value >= (or >, when `strict`) `pawns`
/// for a lower bound, the largest <= (<) for an upper one.
int64_t lower_centipawns(double pawns, bool strict) {
  double cp = pawns * 100.0;
  double r = std::round(cp);
  bool whole = std::fabs(cp - r) < 1e-6;
  if (whole) return int64_t(r) + (strict ? 1 : 0);
  return int64_t(std::ceil(cp));
}
int64_t upper_centipawns(double pawns, bool strict) {
  double cp = pawns * 100.0;
  double r = std::round(cp);
  bool whole = std::fabs(cp - r) < 1e-6;
  if (whole) return int64_t(r) - (strict ? 1 : 0);
  return int64_t(std::floor(cp));
}

/// `cp` (the view of `stm`, the side to move in the scored position) as seen by the query's
/// view: `sidetomove` = the view of `side`, `absolute` = White's (Black's when swapped).
int64_t seen_by(int64_t cp, chess::Color stm, const EngineQuery& q, chess::Color side) {
  if (q.view == cql::ScoreView::SideToMove) return stm == side ? cp : -cp;
  chess::Color viewer = q.colors_swapped ? chess::BLACK : chess::WHITE;
  return stm == viewer ? cp : -cp;
}

/// The worker's context; outside query::execute (a GameMatcher without one) a per-thread
/// context with the default engine and no cache, killed at thread exit.
AnalysisContext& context_of(const PosCtx& c) {
  if (c.analysis) return *c.analysis;
  static AnalysisSession fallback_session("", {});
  thread_local AnalysisContext fallback(fallback_session);
  return fallback;
}

}  // namespace

int64_t EngineQuery::pack() const {
  return (limit & 0xffffffffLL) | (int64_t(mode == cql::EngineLimit::MoveTime) << 32) |
         (int64_t(view == cql::ScoreView::Absolute) << 33) | (int64_t(mate) << 34) |
         (int64_t(colors_swapped) << 35);
}

EngineQuery EngineQuery::unpack(int64_t value) {
  EngineQuery q;
  q.limit = value & 0xffffffffLL;
  q.mode = (value >> 32 & 1) ? cql::EngineLimit::MoveTime : cql::EngineLimit::Depth;
  q.view = (value >> 33 & 1) ? cql::ScoreView::Absolute : cql::ScoreView::SideToMove;
  q.mate = value >> 34 & 1;
  q.colors_swapped = value >> 35 & 1;
  return q;
}

// ---- nodes

Node engine_node(const cql::KeywordItem& item, cql::Keyword k, std::vector<Designator> d, bool swap) {
  const auto& a = std::get<cql::EvaluationArgs>(item.args);
  Node n;
  n.op = k == cql::Keyword::Evaluation ? Op::kEvaluation : Op::kMoveEvaluation;
  n.d = std::move(d);
  if (!a.limit || a.limit_value <= 0 || a.limit_value > 1'000'000'000)
    throw CompileError(item.loc, cql::keyword_spelling(k) + " needs 'depth <plies>' or 'movetime <ms>'");
  if (n.op == Op::kMoveEvaluation && n.d.size() != 2)
    throw CompileError(item.loc, ":moveevaluation needs a mover and a target designator");
  EngineQuery q;
  q.mode = *a.limit;
  q.limit = a.limit_value;
  q.view = a.view.value_or(cql::ScoreView::SideToMove);
  q.mate = a.mate;
  q.colors_swapped = swap && q.view == cql::ScoreView::Absolute && !a.mate;  // else no matter
  n.set(payload::EngineQueryBits{q.pack()});
  if (!a.mate) {
    if (!a.score) throw CompileError(item.loc, cql::keyword_spelling(k) + " needs a score range");
    if (a.score->lo) n.range.lo = lower_centipawns(*a.score->lo, a.score->lo_strict);
    if (a.score->hi) n.range.hi = upper_centipawns(*a.score->hi, a.score->hi_strict);
  }
  return n;
}

bool match_evaluation(const Node& n, const PosCtx& c) {
  const EngineQuery q = EngineQuery::unpack(n.as<payload::EngineQueryBits>().packed);
  const EngineScore s = context_of(c).evaluate(*c.pos, q.mode, q.limit);
  if (q.mate)
    return s.kind == EngineScore::Kind::kMate &&
           (q.mode == cql::EngineLimit::MoveTime || s.mate_plies() <= q.limit);
  const chess::Color stm = c.pos->side_to_move();
  return n.range.contains(seen_by(centipawns(s), stm, q, stm));
}

bool match_move_evaluation(const Node& n, const PosCtx& c) {
  const chess::Move m = c.next;
  if (!m.is_ok() || m == chess::Move::null()) return false;
  const chess::Position& pos = *c.pos;
  chess::Square to = m.to_sq();
  if (m.kind() == chess::Move::CASTLING)
    to = chess::Position::castling_king_to(chess::castling_right(pos.side_to_move(), m.to_sq() > m.from_sq()));
  if (!(n.d[0].matches(c) & chess::square_bb(m.from_sq())) || !(n.d[1].matches(c) & chess::square_bb(to)))
    return false;
  const EngineQuery q = EngineQuery::unpack(n.as<payload::EngineQueryBits>().packed);
  AnalysisContext& analysis = context_of(c);
  const EngineScore before = analysis.evaluate(pos, q.mode, q.limit);
  chess::Position after = pos;
  chess::UndoInfo undo;
  after.do_move(m, undo);
  const EngineScore later = analysis.evaluate(after, q.mode, q.limit);
  const chess::Color viewer_stm = after.side_to_move();
  const int64_t diff = seen_by(centipawns(later), after.side_to_move(), q, viewer_stm) -
                       seen_by(centipawns(before), pos.side_to_move(), q, viewer_stm);
  return n.range.contains(diff);
}

bool uses_engine(const Node& n) {
  if (n.op == Op::kEvaluation || n.op == Op::kMoveEvaluation) return true;
  for (const auto& list : n.lists)
    for (const auto& conjunction : list->variants)
      for (const Node& inner : conjunction)
        if (uses_engine(inner)) return true;
  return false;
}

bool endgame_evaluation(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  const int pieces = chess::popcount(pos.pieces());
  const payload::TablebaseProbe& query = n.as<payload::TablebaseProbe>();
  if (!query.table_pieces.contains(pieces)) {  // more pieces than the tables hold
    // A Gaviota table could exist: probe() reports the missing size once, with no library call.
    if (pieces <= tablebase::kGaviotaMaxPieces) tablebase::probe(pos);
    return false;
  }
  if (query.star && !c.material_new) return false;
  const tablebase::ProbeResult r = tablebase::probe(pos);
  if (r.verdict == tablebase::Verdict::kUnknown) return false;
  const bool white_to_move = pos.side_to_move() == chess::WHITE;
  bool outcome = false;
  switch (cql::EndgameOutcome(query.outcome)) {
    case cql::EndgameOutcome::Draw: return r.verdict == tablebase::Verdict::kDraw;
    case cql::EndgameOutcome::SideToMoveWins:
      outcome = r.verdict == (white_to_move ? tablebase::Verdict::kWhiteWins : tablebase::Verdict::kBlackWins);
      break;
    case cql::EndgameOutcome::EitherWins: outcome = r.verdict != tablebase::Verdict::kDraw; break;
    case cql::EndgameOutcome::WhiteWins: outcome = r.verdict == tablebase::Verdict::kWhiteWins; break;
    case cql::EndgameOutcome::BlackWins: outcome = r.verdict == tablebase::Verdict::kBlackWins; break;
  }
  return outcome && n.range.contains(r.plies);
}

}  // namespace eval
