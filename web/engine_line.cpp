#include "web/engine_line.h"

#include "analysis/engine.h"

namespace web {

EngineService::EngineService(std::string engine, int64_t movetime_ms)
    : engine_name_(std::move(engine)), movetime_ms_(movetime_ms) {}

EngineService::~EngineService() = default;

EngineLine EngineService::evaluate(const std::string& fen) {
  const uint64_t serial = ++latest_;
  cancel_ = true;  // the running search (if any) gives the engine up
  std::lock_guard lock(engine_mutex_);
  EngineLine line;
  if (serial != latest_) {  // a newer request came while this one waited
    line.cancelled = true;
    return line;
  }
  cancel_ = false;
  if (!engine_) {
    analysis::EngineConfig config;
    config.path = analysis::resolve_engine(engine_name_);
    config.cancel = &cancel_;
    config.depth_timeout_ms = movetime_ms_ + 5000;
    engine_ = std::make_unique<analysis::UciEngine>(config);
  }
  try {
    // Bounded by time (the depth reached comes back with the line); the last exact line wins.
    const analysis::EngineScore score =
        engine_->analyse(fen, false, cql::EngineLimit::MoveTime, movetime_ms_, &line.pv, &line.depth);
    line.kind = score.kind == analysis::EngineScore::Kind::kMate ? "mate" : "cp";
    line.value = score.value;
    line.engine = engine_->name();
  } catch (const analysis::EngineCancelled&) {
    line = EngineLine{};
    line.cancelled = true;
  }
  return line;
}

}  // namespace web
