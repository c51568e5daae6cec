// The engine side of :evaluation / :moveevaluation: AnalysisSession (per query) and
// AnalysisContext (per worker). See analysis/session.h.
#include "analysis/session.h"

#include <cstdio>
#include <cstdlib>

#include "chess/movegen.h"

namespace analysis {

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

}  // namespace

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

}  // namespace analysis
