// StageTimes: where an import's time goes, stage by stage (issue 42). The import's worker
// threads and its writer thread each add the time of their stages to their own StageTimes
// when ImportOptions::stage_times is on; bench_import prints them as microseconds per game.
// Off (the default) the code pays one pointer test per stage boundary.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace db {

/// The stages of an import. Worker stages (kParse .. kEco) happen on a parsing thread, the
/// others on the writer thread; kPostings and kPositions happen on both (the worker derives
/// the keys and entries, the writer files them under the game's id).
enum class Stage : uint8_t {
  kParse,       ///< tokenizing the PGN, tags, header: a worker's time not in another stage
  kPlay,        ///< SAN resolution, legality, do_move on every line
  kRecord,      ///< the move record and annotation record (RecordBuilder)
  kSignature,   ///< the signature (SignatureBuilder, encode)
  kPostings,    ///< posting keys (worker) / FreshPostings::add (writer)
  kPositions,   ///< position index entries (worker) / FreshPositions::add (writer)
  kEco,         ///< ECO tracking and classification
  kNames,       ///< player, event, site, opening and tag-name ids (NameTable)
  kSqlite,      ///< binding and stepping the games and tag rows, SQLite's commit
  kLmdb,        ///< record and signature blocks, LMDB puts and commit
  kWriterOther, ///< the writer's record check, reordering, logs: the rest of its time
  kCount
};

/// The name bench_import prints for `s`.
inline const char* stage_name(Stage s) {
  constexpr const char* kNames[] = {"parse", "play", "record", "signature", "postings", "position index",
                                    "ECO", "names", "SQLite", "LMDB", "writer other"};
  return kNames[size_t(s)];
}

/// A cheap monotonic tick count: the CPU's time-stamp counter where there is one (constant
/// rate on current x86), else steady_clock nanoseconds. Ticks convert to seconds by
/// StageTimes::ticks_per_second, calibrated over the import.
inline uint64_t stage_ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Ticks spent per stage by one thread, or summed over threads.
struct StageTimes {
  std::array<uint64_t, size_t(Stage::kCount)> ticks{};
  StageTimes& operator+=(const StageTimes& o) {
    for (size_t i = 0; i < ticks.size(); ++i) ticks[i] += o.ticks[i];
    return *this;
  }
};

/// Charges the ticks since the last lap to a stage. Null `times`: does nothing.
class StageLap {
 public:
  explicit StageLap(StageTimes* times) : times_(times), last_(times ? stage_ticks() : 0) {}
  /// Adds the ticks since construction or the last lap to stage `s`.
  void lap(Stage s) {
    if (!times_) return;
    const uint64_t now = stage_ticks();
    times_->ticks[size_t(s)] += now - last_;
    last_ = now;
  }

 private:
  StageTimes* times_;
  uint64_t last_;
};

}  // namespace db
