// Query benchmark: runs a fixed set of CQL queries of different kinds over a database
// (default: imports ../shared/corpus/players-344k.pgn.zst into a temporary directory first)
// and prints, per query, matches, candidates after the header filter and after the
// signatures, games replayed, positions evaluated and the wall time without and with the
// planner, then the sums.
// Each query runs with the planner off and on (--repeat N: N times each, the fastest run
// counts; warm page cache after the first), and the two answers are compared.
// Flags per query: "sel" = selective for the signatures (they leave at most 2% of the
// candidates; issue 4 target: at least 20x faster with the planner), "exact" = the planner
// replayed no game that does not match (the target for queries decidable from signatures).
// "scan" = a full scan (the planner replays every candidate of the header filter).
//
// Usage: bench_query [--db DIR | --pgn FILE] [--queries FILE] [--threads N] [--only SUBSTRING] [--repeat N]
//                    [--pgn FILE: import this PGN (not players-344k) into a temporary database]
//                    [--queries FILE: the queries, one per line as `name<TAB>script`, `#` comments;
//                     bench/queries/traversal.tsv holds the game-traversal set of issue 6]
//                    [--profile-on N (only the planner-on search, N times, for perf)]
//                    [--no-windows (the planner prunes but replay evaluates every ply)]
// Each query's line also gives the positions evaluated per second with the planner on
// ("Mpos/s", millions); the sums name the slowest query (issue 21: every query <= 3 s at
// players-344k with 2 threads; full scans of simple position lists >= 40M positions/s).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench_common.h"
#include "bench_queries.h"
#include "db/database.h"
#include "eval/program.h"
#include "planner/plan.h"

int main(int argc, char** argv) {
  std::string db_dir, only, pgn, queries_file;
  unsigned threads = 0;
  int repeat_on = 0;  // profiling: run only the planner-on search this many times
  int repeat = 1;     // runs per query and setting; the fastest counts
  bool no_windows = false;  // planner without ply windows (signature pruning only)
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--profile-on") && i + 1 < argc) repeat_on = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--no-windows")) no_windows = true;
    else if (!std::strcmp(argv[i], "--pgn") && i + 1 < argc) pgn = argv[++i];
    else if (!std::strcmp(argv[i], "--queries") && i + 1 < argc) queries_file = argv[++i];
  }
  std::vector<std::pair<std::string, std::string>> queries;
  if (!bench::load_queries(queries_file, queries)) {
    std::fprintf(stderr, "bench_query: cannot read %s\n", queries_file.c_str());
    return 2;
  }
  namespace fs = std::filesystem;
  if (db_dir.empty()) {
    db_dir = pgn.empty() ? bench::default_db_dir() : bench::default_db_dir() + "-" + fs::path(pgn).stem().string();
    bench::import_if_missing(db_dir, pgn.empty() ? bench::players_pgn() : pgn);
  }
  db::Database database = db::Database::open_readonly(db_dir);
  std::printf("%-28s %8s %10s %10s %10s %10s %12s %8s %8s %8s %7s\n", "query", "matches", "postings", "candidates",
              "after sig", "replayed", "positions", "off s", "on s", "speedup", "Mpos/s");
  double slowest = -1, scan_min_mpos = 1e18;
  int scans = 0;
  std::string slowest_kind;
  double total_off = 0, total_on = 0, sel_off = 0, sel_on = 0, sel_min = 1e9;
  uint64_t total_matches = 0, total_replayed = 0, total_positions = 0, off_positions = 0;
  int n = 0, selective = 0, exact = 0, mismatches = 0;
  for (const auto& [kind, script] : queries) {
    if (!only.empty() && kind.find(only) == std::string::npos) continue;
    std::optional<query::Query> compiled = bench::compile_query(kind, script, 26);
    if (!compiled) continue;
    if (no_windows) compiled->plan().disable_ply_windows();
    query::ExecuteOptions options;
    options.threads = threads;
    std::vector<eval::GameMatch> off_matches, on_matches;
    if (repeat_on > 0) {
      for (int r = 0; r < repeat_on; ++r) on_matches = query::execute(*compiled, database, options).matches;
      continue;
    }
    auto fastest = [&](std::vector<eval::GameMatch>& out) {
      return bench::fastest_run(*compiled, database, options, repeat, out);
    };
    options.planner_off();
    query::Stats off = fastest(off_matches);
    options.disabled.clear();
    query::Stats on = fastest(on_matches);
    const bool same = bench::same_answers(off_matches, on_matches);
    // Selective: the planner (postings and signatures) leaves at most 2% of the games the
    // header filter alone leaves.
    const bool is_sel = on.after_signatures() * 50 <= off.candidates;
    const bool is_exact = on.games_replayed == on.matches;
    const double speedup = on.seconds > 0 ? off.seconds / on.seconds : 0.0;
    total_off += off.seconds;
    total_on += on.seconds;
    total_matches += on.matches;
    total_replayed += on.games_replayed;
    total_positions += on.positions;
    off_positions += off.positions;
    if (is_sel) {
      ++selective;
      sel_off += off.seconds;
      sel_on += on.seconds;
      sel_min = std::min(sel_min, speedup);
    }
    exact += is_exact;
    mismatches += !same;
    ++n;
    if (on.seconds > slowest) {
      slowest = on.seconds;
      slowest_kind = kind;
    }
    const double mpos = on.seconds > 0 ? double(on.positions) / on.seconds / 1e6 : 0.0;
    // Full scan: the planner leaves every candidate of the header filter to replay.
    const bool is_scan = on.games_replayed >= off.candidates && off.candidates > 0;
    if (is_scan) {
      ++scans;
      scan_min_mpos = std::min(scan_min_mpos, mpos);
    }
    std::printf("%-28s %8llu %10llu %10llu %10llu %10llu %12llu %8.3f %8.3f %7.1fx %7.1f%s%s%s%s\n", kind.c_str(),
                (unsigned long long)on.matches, (unsigned long long)on.after_indexes(), (unsigned long long)on.candidates,
                (unsigned long long)on.after_signatures(), (unsigned long long)on.games_replayed,
                (unsigned long long)on.positions, off.seconds, on.seconds, speedup, mpos,
                is_sel ? " sel" : "", is_exact ? " exact" : "", is_scan ? " scan" : "", same ? "" : "  MISMATCH");
    std::fflush(stdout);
    std::printf("    %s\n", script.c_str());
  }
  std::printf("sums over %d queries: matches %llu, games replayed %llu (planner off: every candidate), "
              "positions evaluated %llu (off %llu)\n",
              n, (unsigned long long)total_matches, (unsigned long long)total_replayed,
              (unsigned long long)total_positions, (unsigned long long)off_positions);
  std::printf("total wall time for %d queries: planner off %.2f s, planner on %.2f s (%.1fx)\n", n,
              total_off, total_on, total_on > 0 ? total_off / total_on : 0.0);
  if (selective)
    std::printf("selective queries (sel): %d, planner off %.3f s, on %.3f s (%.1fx), slowest speedup %.1fx\n",
                selective, sel_off, sel_on, sel_on > 0 ? sel_off / sel_on : 0.0, sel_min);
  std::printf("queries replaying only matching games (exact): %d of %d; answers differing: %d\n", exact, n,
              mismatches);
  if (n)
    std::printf("slowest query (planner on): %s, %.3f s; positions per second over all queries: %.1fM\n",
                slowest_kind.c_str(), slowest, total_on > 0 ? double(total_positions) / total_on / 1e6 : 0.0);
  if (scans)
    std::printf("full-scan queries (scan: every candidate replayed): %d, slowest %.1fM positions/s\n", scans,
                scan_min_mpos);
  return mismatches ? 1 : 0;
}
