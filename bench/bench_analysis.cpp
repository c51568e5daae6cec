// Engine benchmark (issue 8): "positions where the side to move is at least 3 pawns ahead at
// depth 8", restricted by cheap conditions (move 30 on, side to move 3 power units ahead)
// that the planner and the node order apply before any engine search. Runs over the first N
// games of a slice of players-344k (default: examples/sample/players-3000.pgn.zst imported
// into a temporary directory) and prints, per run, matches, candidates, games the
// signatures kept, games replayed, positions, engine searches, cache hits and wall time:
//   1. planner on, empty analysis cache (engine searches),
//   2. planner on, the cache of run 1 (cache hits, no searches),
//   3. planner off, the same cache: more games replayed, the same answer.
//
// Usage: bench_analysis [--db DIR] [--games N] [--threads N] [--depth D] [--engine PATH]
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.h"
#include "cql/parser.h"
#include "db/database.h"
#include "analysis/analysis_cache.h"
#include "eval/program.h"
#include "query/executor.h"
#include "query/query.h"
#include "planner/plan.h"

#ifndef CQLDB_SOURCE_DIR
#define CQLDB_SOURCE_DIR "."
#endif

namespace {

void print_row(const char* label, const query::Stats& s) {
  std::printf("%-30s %7llu %10llu %9llu %9llu %10llu %8llu %8llu %8.2f\n", label,
              (unsigned long long)s.matches, (unsigned long long)s.candidates,
              (unsigned long long)s.after_signatures(), (unsigned long long)s.games_replayed,
              (unsigned long long)s.positions, (unsigned long long)s.engine_calls,
              (unsigned long long)s.cache_hits, s.seconds);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::string db_dir, engine;
  uint32_t games = 2000;
  unsigned threads = 0;
  int depth = 8;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--games") && i + 1 < argc) games = uint32_t(std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--depth") && i + 1 < argc) depth = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--engine") && i + 1 < argc) engine = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_analysis [--db DIR] [--games N] [--threads N] [--depth D] [--engine PATH]\n");
      return 2;
    }
  }
  if (db_dir.empty()) {
    db_dir = (fs::temp_directory_path() / "cqldb-bench-analysis").string();
    bench::import_if_missing(db_dir, std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst");
  }
  db::Database database = db::Database::open_readonly(db_dir);
  const std::string script = "(match (position :flipcolor :wtm :movenumber >=30 :powerdifference U >=3"
                             " :evaluation depth " + std::to_string(depth) + " >=3 sidetomove))";
  std::printf("query: %s\nover the first %u games of %s\n", script.c_str(), games, db_dir.c_str());
  const query::Query compiled = query::Query::compile(script, "bench");

  std::vector<uint32_t> within;
  for (uint32_t id = 1; id <= games; ++id) within.push_back(id);
  fs::remove(fs::path(db_dir) / analysis::AnalysisCache::kFileName);
  fs::remove(fs::path(db_dir) / (std::string(analysis::AnalysisCache::kFileName) + "-wal"));
  fs::remove(fs::path(db_dir) / (std::string(analysis::AnalysisCache::kFileName) + "-shm"));

  std::printf("%-30s %7s %10s %9s %9s %10s %8s %8s %8s\n", "run", "matches", "candidates", "after sig",
              "replayed", "positions", "searches", "cached", "s");
  query::ExecuteOptions options;
  options.threads = threads;
  options.within = &within;
  options.engine = engine;
  auto run = [&](const char* label, std::vector<eval::GameMatch>& out) {
    query::Result r = query::execute(compiled, database, options);
    print_row(label, r.stats);
    out = std::move(r.matches);
  };
  std::vector<eval::GameMatch> cold, warm, unplanned;
  run("1 planner on, empty cache", cold);
  run("2 planner on, cache of run 1", warm);
  options.planner_off();
  run("3 planner off, cache", unplanned);
  const bool same = bench::same_answers(cold, warm) && bench::same_answers(cold, unplanned);
  std::printf("answers of the three runs %s\n", same ? "agree" : "DIFFER");
  return same ? 0 : 1;
}
