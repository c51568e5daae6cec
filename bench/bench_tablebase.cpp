// Tablebase benchmark (issue 8): :endgameevaluation queries over a database, each run with
// the planner off and on. Prints matches, tablebase probes, games replayed, positions
// evaluated and wall time per run, and checks that both runs give the same answer. The
// planner's material condition (total pieces within the largest table) should prune almost
// every game before any probe.
//
// Usage: bench_tablebase [--db DIR] [--pgn FILE] [--threads N] [--only SUBSTRING]
//                        [--tablebases DIR[:DIR]]
// Default database: /tmp/cqldb-bench-query (bench_query's), imported from
// ../shared/corpus/players-344k.pgn.zst unless --pgn names another file (e.g. a slice).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "db/database.h"
#include "eval/program.h"
#include "query/executor.h"
#include "analysis/tablebase.h"
#include "planner/plan.h"

namespace {

using bench::BenchQuery;

const BenchQuery kQueries[] = {
    {"K+R v K tablebase wins",
     "(match (position :flipcolor :piececount U 3 :piececount R 1 :endgameevaluation +mate))"},
    {"K+P v K tablebase wins",
     "(match (position :flipcolor :piececount U 3 :piececount P 1 :endgameevaluation +mate))"},
    {"K+P v K tablebase draws",
     "(match (position :piececount U 3 :piececount [Pp] 1 :endgameevaluation remis))"},
    {"K+R or K+P v K wins, *",
     "(match (position :flipcolor :piececount U 3 :piececount [RP] 1 :endgameevaluation* +mate))"},
    {"K+P v K, side to move wins in >= 30 plies",
     "(match (position :piececount U 3 :piececount [Pp] 1 :endgameevaluation mate >=30))"},
    {"any tablebase win (no other item)", "(match (position :endgameevaluation *mate))"},
};

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir, pgn = bench::players_pgn(), only;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--pgn") && i + 1 < argc) pgn = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--tablebases") && i + 1 < argc) analysis::tablebase::configure(argv[++i]);
  }
  if (db_dir.empty()) db_dir = bench::default_db_dir();
  bench::import_if_missing(db_dir, pgn);
  db::Database database = db::Database::open_readonly(db_dir);
  const analysis::tablebase::Status status = analysis::tablebase::prepare();
  std::printf("tables: %s (scheme cp%d, up to %d pieces)\n", status.dirs.c_str(), status.scheme,
              status.max_pieces);
  std::printf("%-42s %7s %7s %10s %10s %11s %9s %8s\n", "query", "planner", "matches", "probes",
              "replayed", "positions", "after sig", "time s");
  for (const BenchQuery& q : kQueries) {
    if (!only.empty() && std::strstr(q.kind, only.c_str()) == nullptr) continue;
    std::optional<query::Query> compiled = bench::compile_query(q.kind, q.script, 42);
    if (!compiled) continue;
    const planner::Plan& plan = compiled->plan();
    std::vector<eval::GameMatch> answers[2];
    for (int on = 0; on <= 1; ++on) {
      query::ExecuteOptions options;
      options.threads = threads;
      if (!on) options.planner_off();
      const uint64_t probes_before = analysis::tablebase::probe_count();
      query::Result run = query::execute(*compiled, database, options);
      const query::Stats& s = run.stats;
      answers[on] = std::move(run.matches);
      const uint64_t probes = analysis::tablebase::probe_count() - probes_before;
      std::printf("%-42s %7s %7llu %10llu %10llu %11llu %9llu %8.2f\n", on ? "" : q.kind, on ? "on" : "off",
                  (unsigned long long)s.matches, (unsigned long long)probes,
                  (unsigned long long)s.games_replayed, (unsigned long long)s.positions,
                  (unsigned long long)s.after_signatures(), s.seconds);
    }
    const bool same = bench::same_answers(answers[0], answers[1]);
    std::printf("    %s%s\n", q.script, same ? "" : "   MISMATCH planner off/on");
    if (plan.prunes()) std::printf("    planner: %s\n", plan.condition(0).describe().c_str());
  }
  return 0;
}
