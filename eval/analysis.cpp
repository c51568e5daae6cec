#include "eval/analysis.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chess/movegen.h"
#include "eval/program.h"

namespace eval {

namespace {

/// The FEN of `pos` without the half-move clock and full-move number (the cache key).
std::string fen_without_counters(const chess::Position& pos) {
  std::string fen = pos.fen();
  for (int fields = 0; fields < 2; ++fields) {
    size_t blank = fen.find_last_of(' ');
    if (blank != std::string::npos) fen.resize(blank);
  }
  return fen;
}

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

/// The worker's context; outside eval::search (a GameMatcher without one) a per-thread
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

std::string default_engine_name() {
  const char* env = std::getenv("CQLDB_ENGINE");
  return env && *env ? env : "stockfish";
}

// ---- AnalysisSession

AnalysisSession::AnalysisSession(std::string engine, std::filesystem::path cache_file,
                                 const std::atomic<bool>* cancel, const std::atomic<bool>* abandon)
    : engine_name_(engine.empty() ? default_engine_name() : std::move(engine)),
      cache_file_(std::move(cache_file)) {
  config.cancel = cancel;
  config.abandon = abandon;
  if (const char* t = std::getenv("CQLDB_ENGINE_TIMEOUT"); t && std::atoll(t) > 0)
    config.depth_timeout_ms = std::atoll(t) * 1000;
}

AnalysisSession::~AnalysisSession() = default;

const EngineConfig& AnalysisSession::engine_config() {
  std::lock_guard lock(mutex_);
  if (!resolved_) {
    resolved_ = true;
    try {
      config.path = resolve_engine(engine_name_);
    } catch (const EngineError& e) {
      resolve_error_ = e.what();
    }
  }
  if (!resolve_error_.empty()) throw EngineError(resolve_error_);
  return config;
}

AnalysisCache* AnalysisSession::cache() {
  if (cache_file_.empty()) return nullptr;
  const std::string engine = engine_config().path;
  std::lock_guard lock(mutex_);
  if (!cache_opened_) {
    cache_opened_ = true;
    try {
      cache_ = std::make_unique<AnalysisCache>(cache_file_, engine);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cqldb: warning: engine results are not cached (%s: %s)\n",
                   cache_file_.string().c_str(), e.what());
    }
  }
  return cache_.get();
}

void AnalysisSession::flush() {
  std::lock_guard lock(mutex_);
  if (cache_) cache_->flush();
}

// ---- AnalysisContext

AnalysisContext::AnalysisContext(AnalysisSession& session) : session_(session) {}

AnalysisContext::~AnalysisContext() = default;  // ~UciEngine kills the process

pid_t AnalysisContext::engine_pid() const { return engine_ ? engine_->pid() : -1; }

EngineScore AnalysisContext::evaluate(const chess::Position& pos, cql::EngineLimit mode, int64_t limit) {
  if (!chess::has_legal_move(pos)) {
    EngineScore s;
    if (pos.in_check()) s.kind = EngineScore::Kind::kMate;  // mated: mate 0
    return s;
  }
  const EngineConfig& config = session_.engine_config();
  AnalysisCache* cache = session_.cache();
  key_.fen = fen_without_counters(pos);
  key_.mode = mode;
  key_.limit = limit;
  EngineScore s;
  if (cache) {
    if (!reader_) reader_ = std::make_unique<AnalysisCache::Reader>(*cache);
    if (reader_->find(key_, s)) {
      ++session_.cache_hits;
      return s;
    }
  }
  if (!engine_) engine_ = std::make_unique<UciEngine>(config);
  s = engine_->analyse(pos.fen(), pos.is_chess960(), mode, limit);
  ++session_.engine_calls;
  if (cache) cache->add(key_, s);
  return s;
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

}  // namespace eval
