// The stages of query::execute (query/executor.h), each a named object with its own figures.
// Internal to query/: the driver in executor.cpp creates them, runs them in order and
// collects their StageFigures.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "db/game_reader.h"
#include "headers/game_info.h"
#include "index/signature.h"
#include "query/executor.h"

namespace query::detail {

/// A game to replay and the alternatives (bit i = Program::alternatives()[i]) it may match.
struct Candidate {
  uint32_t id;
  unsigned alternatives;
};

/// Candidate::alternatives bit of a game replayed although its header conditions fail every
/// alternative (the header stage is off): it is evaluated all the same and cannot match.
constexpr unsigned kHeaderFailed = 1u << 31;

/// What the stages of one run share. Filled stage by stage; the invariants are noted per
/// field.
struct RunState {
  const Query& query;
  db::Database& database;
  const ExecuteOptions& options;
  Stats& stats;
  uint32_t game_count = 0;   ///< games in the snapshot; ids are 1..game_count
  bool any_list = false;     ///< some alternative has a position list (else headers decide)
  /// The plan the pruning stages may use: null for a negated program or one without lists.
  const planner::Plan* plan = nullptr;
  /// postings: per alternative the posting candidates (ascending), nullopt = not narrowed.
  std::vector<std::optional<std::vector<uint32_t>>> posted{};
  /// headers: per game id (index 0 unused) the alternatives whose headers pass (and whose
  /// postings kept it); 0 = none.
  std::vector<unsigned> mask{};
  /// headers: the games to replay, ascending ids.
  std::vector<Candidate> candidates{};
  /// headers: GameInfo by id when the program or the plan reads it, else empty.
  std::vector<headers::GameInfo> info{};
  /// headers: header texts by id when the program reads them (CQL 6 strings; info[id].text
  /// points here), else empty.
  std::vector<headers::GameText> text{};
  /// positions, postings: the games the index stages kept (game_count when neither ran).
  uint64_t after_indexes = 0;
  /// replay: the candidates the signature test kept and the time it took (workers' time
  /// divided by the threads), the signatures stage's figures.
  uint64_t after_signatures = 0;
  double signature_seconds = 0;
  /// replay: the search stopped early because ExecuteOptions::limit matches were found.
  bool stopped_early = false;
  /// True when `id` is in ExecuteOptions::within (or there is none).
  bool in_scope(uint32_t id) const;
};

/// postings: set algebra on the posting index's bitmaps (index/postings.h).
class PostingStage {
 public:
  static constexpr const char* kName = "postings";
  void run(RunState& run, StageFigures& figures);
};

/// positions: the position index (index/position_index.h) narrows each alternative with a
/// necessary :fen position to the games that may reach it (planner/position_plan.h), on top
/// of the posting candidates.
class PositionStage {
 public:
  static constexpr const char* kName = "positions";
  void run(RunState& run, StageFigures& figures);
};

/// headers: the header SQL of each alternative (headers/header_store.h), the candidate list,
/// and the GameInfo rows the later stages read.
class HeaderStage {
 public:
  static constexpr const char* kName = "headers";
  void run(RunState& run, StageFigures& figures);
};

/// signatures: the plan's test of each candidate's signature, run by the replay workers one
/// chunk at a time just before replaying it (one cursor pass per chunk). Thread-safe.
class SignatureStage {
 public:
  static constexpr const char* kName = "signatures";
  /// Enabled and the plan can prune.
  explicit SignatureStage(const RunState& run);
  bool active() const { return active_; }
  /// Tests candidates [begin, end) of `run`, clearing the alternatives of the games ruled
  /// out; `chunk_sigs[i - begin]` gets the signature bytes read (views valid while `reader`
  /// lives), empty when not read. A game whose signature does not decode is skipped (its
  /// alternatives cleared) and its id appended to `damaged` (issue 40).
  void test_chunk(RunState& run, db::GameReader& reader, size_t begin, size_t end,
                  std::vector<std::string_view>& chunk_sigs, sig::Signature& scratch,
                  std::vector<uint32_t>& damaged);
  /// Games tested and pruned, and the summed time of all workers.
  uint64_t tested() const { return tested_; }
  uint64_t pruned() const { return pruned_; }
  double seconds() const { return double(nanoseconds_.load()) / 1e9; }

 private:
  bool active_ = false;
  std::atomic<uint64_t> tested_{0}, pruned_{0};
  std::atomic<int64_t> nanoseconds_{0};
  std::atomic<bool> gave_up_{false};  // it pruned < 5% of a sample: stop testing
};

/// windows: the main-line plies of a game where some list may match (planner/ply_windows.h).
class WindowStage {
 public:
  static constexpr const char* kName = "windows";
  explicit WindowStage(const RunState& run);
  bool active() const { return active_; }
  /// The allowed plies of candidate `id` (signature `sig_bytes`, read if empty), or null when
  /// every ply must be evaluated.
  const std::vector<uint8_t>* windows(const RunState& run, db::GameReader& reader, uint32_t id,
                                      unsigned alternatives, std::string_view sig_bytes,
                                      sig::Signature& scratch, std::vector<uint8_t>& allowed) const;

 private:
  bool active_ = false;
};

/// replay: the candidates replayed on all cores by eval::GameMatcher; decides every match.
class ReplayStage {
 public:
  static constexpr const char* kName = "replay";
  /// Appends the matches (any order) to `matches`.
  void run(RunState& run, SignatureStage& signatures, const WindowStage& windows,
           std::vector<eval::GameMatch>& matches, StageFigures& figures);
};

}  // namespace query::detail
